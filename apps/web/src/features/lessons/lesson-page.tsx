import { saveLessonBookingSetting } from '@studio/contract';
import { Card, Tabs } from 'antd';
import { useCan } from '../../shared/profile.ts';
import { useSearchParams } from '../../shared/router.tsx';
import EquipmentTab from './equipment-tab.tsx';
import LessonSettingForm from './lesson-setting-form.tsx';
import LessonTypeTab from './lesson-type-tab.tsx';

const TABS = ['type', 'equipment', 'setting'] as const;

/**
 * /lesson/list (课程 → 私教/小班, the manager's): the lesson types (?tab absent), the machines they
 * need (器械, ?tab=equipment) and the booking setting (预约设置, ?tab=setting). Teachers' working
 * hours are beside the teachers (/teacher/hours).
 */
export default function LessonPage() {
  const [params, setParams] = useSearchParams();
  const canSet = useCan(saveLessonBookingSetting);
  const asked = TABS.find((t) => t === params.get('tab')) ?? 'type';
  const tab = asked === 'setting' && !canSet ? 'type' : asked;
  return (
    <Card styles={{ body: { paddingTop: 4 } }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams(k === 'type' ? {} : { tab: k })}
        items={[
          { key: 'type', label: '私教/小班课', children: <LessonTypeTab /> },
          { key: 'equipment', label: '器械', children: <EquipmentTab /> },
          ...(canSet ? [{ key: 'setting', label: '预约设置', children: <LessonSettingForm /> }] : []),
        ]}
      />
    </Card>
  );
}

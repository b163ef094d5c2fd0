import { Select, Space, TreeSelect } from 'antd';
import { areaTreeData, useAreas, useTeachers } from '../lib/reference.ts';

interface Props {
  areaId: number | null;
  teacherId: number | null;
  onArea: (id: number | null) => void;
  onTeacher: (id: number | null) => void;
}

/** Venue (tree: a venue includes its rooms) and teacher filters of the calendar. */
export function Filters({ areaId, teacherId, onArea, onTeacher }: Props) {
  const areas = useAreas();
  const teachers = useTeachers();
  return (
    <Space wrap>
      <TreeSelect
        data-testid="area-filter"
        style={{ width: 200 }}
        placeholder="全部场地"
        allowClear
        showSearch
        treeNodeFilterProp="title"
        treeDefaultExpandAll
        loading={areas.isPending}
        value={areaId ?? undefined}
        treeData={areaTreeData(areas.data)}
        onChange={(v) => onArea(v ?? null)}
      />
      <Select
        data-testid="teacher-filter"
        style={{ width: 160 }}
        placeholder="全部老师"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={teachers.isPending}
        value={teacherId ?? undefined}
        options={(teachers.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
        onChange={(v) => onTeacher(v ?? null)}
      />
    </Space>
  );
}

import { MAX_FIX_ROWS, WEEKDAY_NAMES } from '@studio/contract';
import { Alert, Button, DatePicker, Form, Modal, Radio, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useStoreClock } from '../../shared/store-time.ts';
import { useBuildFromWeek, usePreviewFromWeek, type FromWeekPlan } from './hooks.ts';

const D = 'YYYY-MM-DD';

/**
 * 从课表生成: pick a week of the timetable; its classes (weekday, time, course, teacher, venue, seats)
 * are previewed as the template rows they make, then, asked whether to replace the current rows or
 * add to them, written. Fixed students are not taken from the week (set them per row afterwards).
 */
export default function FromWeekModal({ onClose }: { onClose: () => void }) {
  const clock = useStoreClock();
  const thisWeek = clock.day().startOf('isoWeek');
  const [week, setWeek] = useState<Dayjs | null>(thisWeek);
  const [plan, setPlan] = useState<{ fromDate: string; p: FromWeekPlan } | null>(null);
  const [mode, setMode] = useState<'replace' | 'add'>('replace');
  const preview = usePreviewFromWeek();
  const build = useBuildFromWeek();

  const monday = week?.startOf('isoWeek');
  const onPreview = async () => {
    if (!monday) return;
    const fromDate = monday.format(D);
    const r = await preview.run(fromDate);
    if (!r) return;
    setPlan({ fromDate, p: r.data });
    setMode('replace');
  };
  const onBuild = async () => {
    if (plan && (await build.run(plan.fromDate, mode))) onClose();
  };

  const p = plan?.p;
  const adding = p ? p.rows.length - p.duplicates : 0;
  const addFits = p ? p.existing + adding <= MAX_FIX_ROWS : true;
  const footer = p
    ? [
        <Button key="back" onClick={() => setPlan(null)}>
          重新选择
        </Button>,
        <Button
          key="ok"
          type="primary"
          danger={mode === 'replace' && p.existing > 0}
          loading={build.loading}
          disabled={mode === 'add' && (!addFits || adding === 0)}
          onClick={() => void onBuild()}
        >
          {p.existing > 0 ? (mode === 'replace' ? '替换并生成' : '添加到周课表') : '生成周课表'}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button
          key="preview"
          type="primary"
          loading={preview.loading}
          disabled={!monday}
          onClick={() => void onPreview()}
        >
          预览
        </Button>,
      ];

  return (
    <Modal open title="从课表生成周课表" width={620} onCancel={onClose} footer={footer}>
      {!p && (
        <>
          <Typography.Paragraph type="secondary">
            选择一周，把这一周课表中的每节课（星期、时间、课程、老师、场地、人数）作为周固定课表的一行。生成前会先列出将生成的内容。
          </Typography.Paragraph>
          <Form layout="vertical">
            <Form.Item label="选择一周" required>
              <DatePicker
                picker="week"
                style={{ width: '100%' }}
                value={week}
                onChange={setWeek}
                allowClear={false}
                format={(d) => `${d.startOf('isoWeek').format(D)} 至 ${d.startOf('isoWeek').add(6, 'day').format(D)}`}
                presets={[
                  { label: '上周', value: thisWeek.subtract(1, 'week') },
                  { label: '本周', value: thisWeek },
                  { label: '下周', value: thisWeek.add(1, 'week') },
                ]}
                data-testid="from-week-picker"
              />
            </Form.Item>
          </Form>
        </>
      )}
      {p && plan && (
        <div data-testid="from-week-preview">
          <p>
            将按 {plan.fromDate} 起这一周的 {p.rows.length} 节课生成周课表：
          </p>
          <ol className="from-week-rows">
            {p.rows.map((r, i) => (
              <li key={i}>
                周{WEEKDAY_NAMES[r.weekday]} {r.time}{' '}
                {[r.courseName, r.teacherName, r.areaName].filter(Boolean).join(' · ')} · {r.reservableCount}人
              </li>
            ))}
          </ol>
          {p.existing > 0 ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <span>
                周课表现在有 {p.existing} 节课{p.existingStudents ? `（含 ${p.existingStudents} 位固定学员）` : ''}
                ，请选择：
              </span>
              <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as 'replace' | 'add')}>
                <Space direction="vertical">
                  <Radio value="replace">
                    替换现有：删除现有的 {p.existing} 节课{p.existingStudents ? `及其固定学员` : ''}，只保留这一周的{' '}
                    {p.rows.length} 节
                  </Radio>
                  <Radio value="add" disabled={!addFits}>
                    添加到现有：新增 {adding} 节{p.duplicates ? `（已有的 ${p.duplicates} 节不重复添加）` : ''}
                    {!addFits ? `，超过周课表上限 ${MAX_FIX_ROWS} 节` : ''}
                  </Radio>
                </Space>
              </Radio.Group>
              {mode === 'replace' && p.existingStudents > 0 && (
                <Alert type="warning" showIcon message={`现有的 ${p.existingStudents} 位固定学员将一并删除`} />
              )}
            </Space>
          ) : (
            <span>周课表现在是空的，生成后可以再为每节课添加固定学员。</span>
          )}
        </div>
      )}
    </Modal>
  );
}

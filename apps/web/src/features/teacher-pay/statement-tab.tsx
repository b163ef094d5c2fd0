import { DownloadOutlined, LockOutlined, PlusOutlined, UnlockOutlined } from '@ant-design/icons';
import { TeacherPayMsg, unruledClassText } from '@studio/contract';
import { Alert, App, Button, Card, Empty, Popconfirm, Space, Spin, Statistic, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { yuan } from '../../shared/format.ts';
import { TeacherSelect } from '../../shared/pickers/teacher-select.tsx';
import { downloadWorkbook } from '../../shared/xlsx.ts';
import { lessonText, statementSheets } from './export.ts';
import { useCloseMonth, useStatement } from './hooks.ts';
import type { TeacherStatement } from './types.ts';
import { sessionIdOf } from '../../api/wire.ts';

const AdjustmentModal = lazy(() => import('./adjustment-modal.tsx'));
const ReopenModal = lazy(() => import('./reopen-modal.tsx'));

type Row = TeacherStatement['rows'][number];

/**
 * One teacher's month: every class and 私教/小班 lesson with its heads, rule and amount; the
 * adjustments; the totals (the lessons' share named).
 */
function TeacherCard({ t }: { t: TeacherStatement }) {
  const lessons = t.rows.filter((r) => r.lesson);
  return (
    <Card
      size="small"
      data-testid={`pay-teacher-${t.teacherId}`}
      title={t.teacherName}
      extra={
        <Space size="large">
          <span>课时费 ¥{yuan(t.classTotal)}</span>
          {lessons.length > 0 && (
            <span data-testid="pay-lesson-total">
              其中私教/小班 {lessons.length} 节 ¥{yuan(lessons.reduce((n, r) => n + r.amount, 0))}
            </span>
          )}
          {t.adjustments.length > 0 && <span>调整 ¥{yuan(t.adjustmentTotal)}</span>}
          <strong data-testid="pay-teacher-total">应发 ¥{yuan(t.total)}</strong>
        </Space>
      }
      style={{ marginBottom: 12 }}
    >
      <Table<Row>
        size="small"
        rowKey={sessionIdOf}
        dataSource={t.rows}
        pagination={t.rows.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        locale={{ emptyText: '本月没有上课' }}
        columns={[
          { title: '日期', dataIndex: 'date', width: 110 },
          { title: '时间', dataIndex: 'time', width: 70 },
          { title: '课程', dataIndex: 'courseName' },
          {
            title: '类型',
            dataIndex: 'lesson',
            width: 110,
            render: (_: unknown, r) => (r.lesson ? <Tag color="cyan">{lessonText(r)}</Tag> : '团课'),
          },
          {
            title: '方式',
            dataIndex: 'online',
            width: 70,
            render: (v: number) => (v ? <Tag color="blue">线上</Tag> : '到店'),
          },
          { title: '预约', dataIndex: 'booked', width: 60, align: 'right' },
          { title: '到课', dataIndex: 'came', width: 60, align: 'right' },
          {
            title: '规则',
            dataIndex: 'rule',
            render: (v: string, r) => (r.ruleId ? v : <Typography.Text type="warning">{v}</Typography.Text>),
          },
          { title: '金额（元）', dataIndex: 'amount', width: 110, align: 'right', render: (v: number) => yuan(v) },
        ]}
      />
      {t.adjustments.length > 0 && (
        <div style={{ marginTop: 8 }} data-testid="pay-adjustments">
          <Typography.Text strong>调整</Typography.Text>
          {t.adjustments.map((a) => (
            <div key={a.id} style={{ display: 'flex', gap: 16, padding: '4px 0' }}>
              <span style={{ width: 100 }}>{a.createdAt.slice(0, 10)}</span>
              <span style={{ flex: 1 }}>{a.reason}</span>
              <Typography.Text type="secondary">{a.staffName}</Typography.Text>
              <span style={{ width: 110, textAlign: 'right' }}>{yuan(a.amount)}</span>
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}

/**
 * 课时费月结单: the month's statement per teacher (a teacher account sees its own only), with the
 * manager's adjustments, closing and reopening, and the .xlsx export (a sheet per teacher and 汇总).
 */
export default function StatementTab({ month, manager }: { month: string; manager: boolean }) {
  const [teacherId, setTeacherId] = useState<number | null>(null);
  const [open, setOpen] = useState<'adjust' | 'reopen' | null>(null);
  const q = useStatement(month, manager ? teacherId : null);
  const { modal } = App.useApp();
  const close = useCloseMonth('teacher', (msg, m) => {
    modal.confirm({
      title: `结算并关闭 ${m}？`,
      content: <div data-testid="pay-unruled-confirm">{msg}</div>,
      okText: '仍然结算关闭',
      onOk: () => close.run(m, true),
    });
  });
  const s = q.data;
  // The classes no rule pays, named before closing (the whole store's statement; a filtered one
  // leaves it to the server, whose refusal names them).
  const unruled =
    s && !teacherId
      ? s.teachers.flatMap((t) =>
          t.rows.filter((r) => r.ruleId === null).map((r) => unruledClassText({ ...r, teacherName: t.teacherName })),
        )
      : [];
  const exportBook = () =>
    s &&
    downloadWorkbook(
      `课时费${month}${teacherId && s.teachers[0] ? `-${s.teachers[0].teacherName}` : ''}`,
      statementSheets(s),
    );
  return (
    <div data-testid="pay-statement">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Space wrap>
          {manager && (
            <TeacherSelect
              allowClear
              placeholder="全部老师"
              style={{ width: 180 }}
              value={teacherId ?? undefined}
              onChange={(v) => setTeacherId((v as number | undefined) ?? null)}
            />
          )}
          {s &&
            (s.closed ? (
              <Tag icon={<LockOutlined />} color="green" data-testid="pay-month-state">
                已结算关闭（{s.closing?.closedBy}，{s.closing?.closedAt.slice(0, 16)}）
              </Tag>
            ) : (
              <Tag data-testid="pay-month-state">未结算</Tag>
            ))}
        </Space>
        <Space wrap>
          {manager && s && !s.closed && (
            <>
              <Button icon={<PlusOutlined />} onClick={() => setOpen('adjust')}>
                添加调整
              </Button>
              <Popconfirm
                title={`结算并关闭 ${month}？`}
                description={
                  <div style={{ maxWidth: 420 }}>
                    {unruled.length > 0 && (
                      <Typography.Paragraph type="warning" data-testid="pay-unruled-confirm">
                        {TeacherPayMsg.unruledClasses(month, unruled)}
                      </Typography.Paragraph>
                    )}
                    关闭后月结单不再变化，该月课程的老师、时间和规则都不能再改，直到重新打开。
                  </div>
                }
                okText={unruled.length ? '仍然结算关闭' : '结算关闭'}
                onConfirm={() => close.run(month, unruled.length > 0)}
              >
                <Button type="primary" icon={<LockOutlined />} loading={close.loading}>
                  结算并关闭该月
                </Button>
              </Popconfirm>
            </>
          )}
          {manager && s?.closed && (
            <Button icon={<UnlockOutlined />} onClick={() => setOpen('reopen')}>
              重新打开
            </Button>
          )}
          <Button icon={<DownloadOutlined />} disabled={!s?.teachers.length} onClick={exportBook}>
            导出Excel
          </Button>
        </Space>
      </Space>
      {s?.closed && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message="这是结算关闭时的月结单，之后的改动不会改变它。"
        />
      )}
      {q.isPending ? (
        <Spin style={{ display: 'block', margin: 40 }} />
      ) : !s?.teachers.length ? (
        <Empty description={`${month} 没有课时费记录`} />
      ) : (
        <>
          <Space size="large" style={{ marginBottom: 12 }}>
            {manager && <Statistic title="老师" value={s.teachers.length} suffix="位" />}
            <Statistic title="课程节数" value={s.teachers.reduce((n, t) => n + t.rows.length, 0)} suffix="节" />
            <div data-testid="pay-grand-total">
              <Statistic title="应发合计" value={yuan(s.total)} prefix="¥" />
            </div>
          </Space>
          {s.teachers.map((t) => (
            <TeacherCard key={t.teacherId} t={t} />
          ))}
        </>
      )}
      <Suspense fallback={null}>
        {open === 'adjust' && <AdjustmentModal month={month} teacherId={teacherId} onClose={() => setOpen(null)} />}
        {open === 'reopen' && <ReopenModal kind="teacher" month={month} onClose={() => setOpen(null)} />}
      </Suspense>
    </div>
  );
}

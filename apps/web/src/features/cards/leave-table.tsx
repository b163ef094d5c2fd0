import { CardLifeMsg, LEAVE_STATUS_NAMES, type LeaveStatus } from '@studio/contract';
import { DatePicker, Form, Input, Modal, Popconfirm, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import { useApproveLeave, useCardLeaves, useEndLeave, useRefuseLeave, type CardLeaveRow } from './life-hooks.ts';

const STATUS_COLOR: Record<LeaveStatus, string> = {
  pending: 'gold',
  approved: 'green',
  refused: 'red',
  ended: 'blue',
  cancelled: 'default',
};

/**
 * Leaves: a card's (`mcId`) or the store's waiting for approval (`status: 'pending'`), with what
 * the desk does to each: approve or refuse a request, end an approved leave early (its last day).
 */
export function LeaveTable({ mcId, status }: { mcId?: number; status?: LeaveStatus }) {
  const [page, setPage] = useState(1);
  const q = useCardLeaves({ mcId, status }, page);
  const [ending, setEnding] = useState<CardLeaveRow | null>(null);
  const [refusing, setRefusing] = useState<CardLeaveRow | null>(null);
  const approve = useApproveLeave();
  const clock = useStoreClock();
  return (
    <>
      <Table<CardLeaveRow>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        data-testid="leave-table"
        locale={{ emptyText: status === 'pending' ? '没有待审批的请假申请' : '暂无请假记录' }}
        pagination={{
          current: page,
          pageSize: 20,
          total: q.data?.total ?? 0,
          onChange: setPage,
          hideOnSinglePage: true,
        }}
        columns={[
          ...(mcId === undefined
            ? [
                { title: '会员', dataIndex: 'memberName', width: 100 },
                { title: '会员卡', dataIndex: 'cardName', width: 120 },
              ]
            : []),
          {
            title: '请假日期',
            width: 200,
            render: (_, l) => (
              <span className="nowrap">
                {l.fromDate} 至 {l.endedDate ?? l.toDate}
                {l.endedDate && <div className="muted">原定至 {l.toDate}</div>}
              </span>
            ),
          },
          { title: '天数', dataIndex: 'days', width: 60 },
          { title: '原因', dataIndex: 'reason', ellipsis: true },
          {
            title: '状态',
            dataIndex: 'status',
            width: 100,
            render: (s: LeaveStatus, l) => {
              const now = clock.today();
              const live = s === 'approved' && l.fromDate <= now && now <= l.toDate;
              return <Tag color={STATUS_COLOR[s]}>{live ? '请假中' : LEAVE_STATUS_NAMES[s]}</Tag>;
            },
          },
          {
            title: '来源',
            width: 110,
            render: (_, l) => (l.requestedBy === 'member' ? '会员申请' : `前台登记${l.staff ? `（${l.staff}）` : ''}`),
          },
          {
            title: '处理',
            width: 160,
            render: (_, l) =>
              l.status === 'pending' ? (
                <Space size="small">
                  <Popconfirm
                    title="批准这次请假吗？请假期间已预约的课程将被取消并退回。"
                    onConfirm={() => approve.run(l.id, true)}
                  >
                    <a>批准</a>
                  </Popconfirm>
                  <a onClick={() => setRefusing(l)}>拒绝</a>
                </Space>
              ) : l.status === 'approved' && l.toDate >= clock.today() ? (
                <a onClick={() => setEnding(l)}>{l.fromDate > clock.today() ? '撤销 / 缩短' : '提前结束'}</a>
              ) : (
                <span className="muted">{l.decideRemark ?? l.decidedBy ?? ''}</span>
              ),
          },
        ]}
      />
      {ending && <EndLeaveModal leave={ending} onClose={() => setEnding(null)} />}
      {refusing && <RefuseModal leave={refusing} onClose={() => setRefusing(null)} />}
    </>
  );
}

/** Ends an approved leave: its last day of leave (a day before it starts withdraws it whole). */
function EndLeaveModal({ leave, onClose }: { leave: CardLeaveRow; onClose: () => void }) {
  const [form] = Form.useForm<{ date: Dayjs }>();
  const end = useEndLeave();
  const clock = useStoreClock();
  const yesterday = clock.day().subtract(1, 'day');
  const first = dayjs(leave.fromDate).subtract(1, 'day');
  const initial = first.isAfter(yesterday) ? first : yesterday;
  return (
    <FormModal
      title="结束请假"
      okText="确认结束"
      form={form}
      loading={end.loading}
      submit={(v) => end.run(leave.id, v.date.format('YYYY-MM-DD'))}
      onCancel={onClose}
    >
      <p>
        请假 {leave.fromDate} 至 {leave.toDate}（{leave.days} 天）。选择请假的最后一天，之后的天数退回，有效期相应提前；
        选择开始前一天即撤销整个请假。
      </p>
      <Form form={form} layout="vertical" initialValues={{ date: initial }}>
        <Form.Item label="请假的最后一天" name="date" rules={[{ required: true, message: CardLifeMsg.endDate }]}>
          <DatePicker
            style={{ width: 220 }}
            disabledDate={(d) => d.isBefore(yesterday, 'day') || !d.isBefore(dayjs(leave.toDate), 'day')}
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

function RefuseModal({ leave, onClose }: { leave: CardLeaveRow; onClose: () => void }) {
  const [form] = Form.useForm<{ remark: string }>();
  const refuse = useRefuseLeave();
  return (
    <FormModal
      title={`拒绝请假：${leave.memberName} ${leave.fromDate} 至 ${leave.toDate}`}
      okText="确认拒绝"
      form={form}
      loading={refuse.loading}
      submit={(v) => refuse.run(leave.id, v.remark)}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          label="拒绝原因（会员可以看到）"
          name="remark"
          rules={[{ required: true, whitespace: true, message: CardLifeMsg.refuseRemark }]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** A card's leaves in a modal (the member card table's 请假记录). */
export function LeaveListModal({ card, onClose }: { card: { id: number; cardName: string }; onClose: () => void }) {
  return (
    <Modal open title={`请假记录：${card.cardName}`} footer={null} width={860} onCancel={onClose}>
      <LeaveTable mcId={card.id} />
    </Modal>
  );
}

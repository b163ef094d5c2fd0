import {
  ERASURE_STATUS_LABEL,
  ERASURE_STATUSES,
  PrivacyMsg,
  queryErasureRequestList,
  updateErasureRequest,
  type ErasureRequest,
  type ErasureStatus,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Input, Modal, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client.ts';
import dayjs from '../../shared/dayjs.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

const STATUS_COLOR: Record<ErasureStatus, string> = {
  pending: 'orange',
  done: 'default',
  rejected: 'red',
  withdrawn: 'default',
};

type Filter = ErasureStatus | 'all';

/**
 * 会员 → 删除申请 (店长): members' requests to delete their account, the pending first by their due
 * date. 同意删除 erases the member's name, mobile and the rest of their personal fields (the server
 * refuses while they hold paid value or classes to come); 拒绝 needs the reason the member is told.
 */
export default function MemberErasurePage() {
  const { modal } = App.useApp();
  const [filter, setFilter] = useState<Filter>('pending');
  const [rejecting, setRejecting] = useState<ErasureRequest | null>(null);
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const status = filter === 'all' ? null : filter;
  const q = useQuery({
    queryKey: keys.memberList.erasure(filter),
    queryFn: () => call(queryErasureRequestList, { status }),
  });
  const decide = useWrite(
    (id: number, approve: boolean, reason: string | null) => call(updateErasureRequest, { id, approve, note: reason }),
    { success: '已处理', changes: 'member' },
  );
  const approve = (r: ErasureRequest) =>
    modal.confirm({
      title: `同意删除 ${r.memberName} 的账号？`,
      content: (
        <div>
          <p>
            将抹去该会员的姓名、手机号、生日、备注和微信绑定，并退出其登录；会员卡、流水、订单等须保留的记录留下，但不再显示其身份。此操作不能撤销。
          </p>
          <p>该会员如还有未用完的会员卡或未上的课程，需先退卡或取消。</p>
        </div>
      ),
      okText: '同意删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => decide.run(r.id, true, null),
    });
  const today = dayjs().format('YYYY-MM-DD');
  return (
    <Card title="删除账号申请">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">
          会员在手机上「我的 → 个人信息」申请删除账号，门店应在截止日期前处理。
        </Typography.Text>
        <Segmented<Filter>
          value={filter}
          onChange={setFilter}
          options={[
            ...ERASURE_STATUSES.map((s) => ({ value: s, label: ERASURE_STATUS_LABEL[s] })),
            { value: 'all', label: '全部' },
          ]}
        />
        <Table<ErasureRequest>
          rowKey="id"
          aria-label="删除账号申请"
          loading={q.isLoading}
          dataSource={q.data ?? []}
          pagination={{ pageSize: 20, showSizeChanger: false }}
          locale={{ emptyText: '没有申请' }}
          columns={[
            { title: '会员', dataIndex: 'memberName' },
            { title: '手机号', dataIndex: 'mobile', render: (v: string | null) => v ?? '已删除' },
            { title: '原因', dataIndex: 'reason', render: (v: string | null) => v || '-' },
            { title: '申请时间', dataIndex: 'requestedAt', render: (v: string) => v.slice(0, 16) },
            {
              title: '处理截止',
              dataIndex: 'dueDate',
              render: (v: string, r) =>
                r.status === 'pending' && v < today ? (
                  <Typography.Text type="danger">{v}（已超期）</Typography.Text>
                ) : (
                  v
                ),
            },
            {
              title: '状态',
              dataIndex: 'status',
              render: (s: ErasureStatus, r) => (
                <Space direction="vertical" size={0}>
                  <Tag color={STATUS_COLOR[s]}>{ERASURE_STATUS_LABEL[s]}</Tag>
                  {r.decidedAt && (
                    <Typography.Text type="secondary">
                      {r.decidedAt.slice(0, 16)} {r.decidedByName ?? ''}
                    </Typography.Text>
                  )}
                  {r.note && <Typography.Text type="secondary">{r.note}</Typography.Text>}
                </Space>
              ),
            },
            {
              title: '处理',
              render: (_, r) =>
                r.status === 'pending' ? (
                  <Space>
                    <Button danger size="small" loading={decide.loading} onClick={() => approve(r)}>
                      同意删除
                    </Button>
                    <Button
                      size="small"
                      onClick={() => {
                        setNote('');
                        setNoteError(null);
                        setRejecting(r);
                      }}
                    >
                      拒绝
                    </Button>
                  </Space>
                ) : null,
            },
          ]}
        />
      </Space>
      <Modal
        open={rejecting !== null}
        title={`拒绝 ${rejecting?.memberName ?? ''} 的删除申请`}
        okText="拒绝申请"
        cancelText="取消"
        confirmLoading={decide.loading}
        onCancel={() => setRejecting(null)}
        onOk={async () => {
          if (!note.trim()) {
            setNoteError(PrivacyMsg.rejectNote);
            return;
          }
          const done = rejecting && (await decide.run(rejecting.id, false, note.trim()));
          if (done) setRejecting(null);
        }}
      >
        <label htmlFor="erasure-reject-note">原因（会员会看到）</label>
        <Input.TextArea
          id="erasure-reject-note"
          value={note}
          maxLength={200}
          status={noteError ? 'error' : undefined}
          onChange={(e) => {
            setNote(e.target.value);
            setNoteError(null);
          }}
        />
        {noteError && <Typography.Text type="danger">{noteError}</Typography.Text>}
      </Modal>
    </Card>
  );
}

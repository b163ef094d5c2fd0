import { addCardShare, CardShareMsg, deleteCardShare, type MemberCardRow } from '@studio/contract';
import { Alert, Button, Form, List, Modal, Popconfirm, Typography } from 'antd';
import { call } from '../../api/client.ts';
import { MemberPicker } from '../../shared/pickers/member-picker.tsx';
import { useWrite } from '../../shared/use-write.ts';

/**
 * 多人共享: the members besides the holder who book on the card (at most its product's 共享人数).
 * The desk adds one by search or takes one off; bookings already made stay. `card` is read fresh
 * from the member's cards after each change. The server checks everything again.
 */
export default function ShareModal({
  card,
  holderId,
  onClose,
}: {
  card: MemberCardRow;
  /** The holder, when known: not offered as a member to share with. */
  holderId?: number;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ mid?: number }>();
  const add = useWrite((mid: number) => call(addCardShare, { mcId: card.id, mid }), {
    success: '已共享',
    changes: 'memberCard',
  });
  const remove = useWrite((mid: number) => call(deleteCardShare, { mcId: card.id, mid }), {
    success: '已取消共享',
    changes: 'memberCard',
  });
  const listed = card.sharedWith;
  const full = listed.length >= card.shareMax;
  return (
    <Modal open title={`共享成员：${card.cardName}`} footer={null} onCancel={onClose} width={560}>
      {card.shareMax <= 0 ? (
        <Alert type="info" showIcon message={CardShareMsg.notShared} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            共享成员可以用这张卡约课，每次扣费都会记下是谁约的课。这张卡最多共享给 {card.shareMax} 位会员，已共享{' '}
            {listed.length} 位。
          </Typography.Paragraph>
          <List
            bordered
            size="small"
            data-testid="share-list"
            locale={{ emptyText: '还没有共享成员' }}
            dataSource={listed}
            renderItem={(m) => (
              <List.Item
                actions={[
                  <Popconfirm
                    key="remove"
                    title={`取消共享后 ${m.name} 不能再用这张卡约课（已约的课程保留），确定吗？`}
                    onConfirm={() => remove.run(m.id)}
                  >
                    <a>取消共享</a>
                  </Popconfirm>,
                ]}
              >
                {m.name} {m.mobile}
              </List.Item>
            )}
          />
          <Form
            form={form}
            layout="inline"
            style={{ marginTop: 16 }}
            onFinish={async (v) => {
              if (v.mid && (await add.run(v.mid))) form.resetFields();
            }}
          >
            <Form.Item
              name="mid"
              style={{ flex: 1 }}
              rules={[
                { required: true, message: CardShareMsg.member },
                {
                  validator: (_, v: number | undefined) => {
                    if (v !== undefined && v === holderId) return Promise.reject(new Error(CardShareMsg.holder));
                    if (listed.some((m) => m.id === v)) return Promise.reject(new Error(CardShareMsg.already));
                    return Promise.resolve();
                  },
                },
              ]}
            >
              <MemberPicker disabled={full} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={add.loading} disabled={full}>
              添加共享成员
            </Button>
          </Form>
          {full && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {CardShareMsg.full(card.shareMax)}
            </Typography.Paragraph>
          )}
        </>
      )}
    </Modal>
  );
}

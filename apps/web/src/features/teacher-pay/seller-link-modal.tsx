import { createSellerLink, querySellerLink } from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { call } from '../../api/client.ts';
import { useRole } from '../../shared/profile.ts';
import { QrImage } from '../../shared/qr-image.tsx';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/**
 * 推广链接 of a staff member: the members' page address with their code, as text and QR. A member who
 * opens it and buys a card or tops up online counts as this staff member's sale (销售提成).
 * Without `staff`: the signed-in staff member's own (我的推广链接, from the header, every role): the
 * server answers only their own; a manager may make it here, anyone else is told to ask the manager.
 */
export default function SellerLinkModal({
  staff,
  onClose,
}: {
  staff?: { staffId: number; name: string };
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const manager = useRole() === 'manager';
  const key = keys.sellerLink(staff?.staffId ?? 'mine');
  const q = useQuery({ queryKey: key, queryFn: () => call(querySellerLink, staff ? { staffId: staff.staffId } : {}) });
  const make = useWrite(() => call(createSellerLink, staff ? { staffId: staff.staffId } : {}), {
    success: '推广链接已生成',
  });
  const generate = async () => {
    const made = await make.run();
    if (made) qc.setQueryData(key, made.data);
  };
  const link = q.data;
  const whose = staff ? staff.name : '你';
  return (
    <Modal open title={staff ? `推广链接：${staff.name}` : '我的推广链接'} footer={null} onCancel={onClose}>
      <Typography.Paragraph type="secondary">
        会员打开这个链接（或扫码）进入约课页面后，在手机上购卡、充值的订单计入{whose}的销售提成。
      </Typography.Paragraph>
      {link?.url ? (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <QrImage text={link.url} size={200} testId="seller-link-qr" />
          <Typography.Text copyable={{ text: link.url }} data-testid="seller-link-url">
            {link.url}
          </Typography.Text>
        </Space>
      ) : link && manager ? (
        <Button type="primary" loading={make.loading} onClick={() => void generate()}>
          生成推广链接
        </Button>
      ) : (
        link && <Alert type="info" showIcon message="还没有推广链接，请店长在“课时费 → 销售提成”中为你生成。" />
      )}
    </Modal>
  );
}

import { createSellerLink, querySellerLink } from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Space, Typography } from 'antd';
import { call } from '../../api/client.ts';
import { QrImage } from '../../shared/qr-image.tsx';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/**
 * 推广链接 of a staff member: the members' page address with their code, as text and QR. A member who
 * opens it and buys a card or tops up online counts as this staff member's sale (销售提成).
 */
export default function SellerLinkModal({
  staff,
  onClose,
}: {
  staff: { staffId: number; name: string };
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const key = keys.sellerLink(staff.staffId);
  const q = useQuery({ queryKey: key, queryFn: () => call(querySellerLink, { staffId: staff.staffId }) });
  const make = useWrite(() => call(createSellerLink, { staffId: staff.staffId }), { success: '推广链接已生成' });
  const generate = async () => {
    const made = await make.run();
    if (made) qc.setQueryData(key, made.data);
  };
  const link = q.data;
  return (
    <Modal open title={`推广链接：${staff.name}`} footer={null} onCancel={onClose}>
      <Typography.Paragraph type="secondary">
        会员打开这个链接（或扫码）进入约课页面后，在手机上购卡、充值的订单计入{staff.name}的销售提成。
      </Typography.Paragraph>
      {link?.url ? (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <QrImage text={link.url} size={200} testId="seller-link-qr" />
          <Typography.Text copyable={{ text: link.url }} data-testid="seller-link-url">
            {link.url}
          </Typography.Text>
        </Space>
      ) : (
        link && (
          <Button type="primary" loading={make.loading} onClick={() => void generate()}>
            生成推广链接
          </Button>
        )
      )}
    </Modal>
  );
}

import { PrinterOutlined, ReloadOutlined } from '@ant-design/icons';
import { queryCheckinCode, CHECKIN_BEFORE_MINUTES } from '@studio/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Modal, Space, Typography } from 'antd';
import { createPortal } from 'react-dom';
import { call } from '../../api/client.ts';
import { QrImage } from '../../shared/qr-image.tsx';
import { useStore } from '../../shared/profile.ts';
import { keys } from '../../shared/query-keys.ts';
import { useCheckinCode } from '../../shared/reference.ts';
import { useWrite } from '../../shared/use-write.ts';

/** Print rules exist only while this is open: the QR page alone on A4. */
const PRINT_CSS = `@media print {
  @page { size: A4 portrait; margin: 20mm; }
  body > *:not(.checkin-print-root) { display: none !important; }
  .checkin-print-root { display: block !important; text-align: center; font-family: sans-serif; }
}`;

/**
 * The store's self check-in QR for the desk: members scan it from their class's start minus
 * CHECKIN_BEFORE_MINUTES until its end. It changes every day by itself; 更换签到码 changes it now
 * (a printed copy stops working).
 */
export default function CheckinQrModal({ onClose }: { onClose: () => void }) {
  const { modal } = App.useApp();
  const q = useCheckinCode();
  const qc = useQueryClient();
  const store = useStore();
  const reset = useWrite(() => call(queryCheckinCode, { reset: true }), { success: '签到码已更换' });
  const doReset = () =>
    modal.confirm({
      title: '更换签到码',
      content: '更换后，之前打印或拍下的签到二维码立即失效。',
      okText: '更换',
      cancelText: '取消',
      onOk: async () => {
        const r = await reset.run();
        if (r) qc.setQueryData(keys.checkinCode, r.data);
      },
    });
  const url = q.data?.url;
  return (
    <Modal
      open
      title="会员扫码签到"
      onCancel={onClose}
      footer={[
        <Button key="r" icon={<ReloadOutlined />} onClick={doReset} loading={reset.loading}>
          更换签到码
        </Button>,
        <Button key="p" type="primary" icon={<PrinterOutlined />} disabled={!url} onClick={() => window.print()}>
          打印
        </Button>,
      ]}
    >
      <style>{PRINT_CSS}</style>
      {url && (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <QrImage text={url} size={240} testId="checkin-qr" />
          <Typography.Text>会员用手机扫码，登录后即可签到</Typography.Text>
          <Typography.Text type="secondary">
            开课前{CHECKIN_BEFORE_MINUTES}分钟到下课前可以签到；签到码 {q.data!.expireTime.slice(0, 10)} 零点自动更换
          </Typography.Text>
        </Space>
      )}
      {url &&
        createPortal(
          <div className="checkin-print-root" style={{ display: 'none' }}>
            <h1>{store.name}</h1>
            <h2>扫码签到</h2>
            <QrImage text={url} size={420} />
            <p>开课前{CHECKIN_BEFORE_MINUTES}分钟到下课前，用手机扫码登录后即可签到</p>
          </div>,
          document.body,
        )}
    </Modal>
  );
}

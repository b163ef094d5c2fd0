import { ExpandOutlined, PrinterOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  CHECKIN_BEFORE_MINUTES,
  CHECKIN_MODE_LABEL,
  CHECKIN_MODES,
  queryCheckinCode,
  updateCheckinMode,
  type CheckinMode,
} from '@studio/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Modal, Radio, Space, Typography } from 'antd';
import { useRef } from 'react';
import { createPortal } from 'react-dom';
import { call } from '../../api/client.ts';
import { useCan, useStore } from '../../shared/profile.ts';
import { QrImage } from '../../shared/qr-image.tsx';
import { QrReachWarning } from '../../shared/qr-reach.tsx';
import { keys } from '../../shared/query-keys.ts';
import { useCheckinCode } from '../../shared/reference.ts';
import { useWrite } from '../../shared/use-write.ts';

/**
 * Rules that exist only while this is open: printed, the QR page alone on A4; full screen (the desk's
 * screen), the code as large as the screen allows.
 */
const PRINT_CSS = `@media print {
  @page { size: A4 portrait; margin: 20mm; }
  body > *:not(.checkin-print-root) { display: none !important; }
  .checkin-print-root { display: block !important; text-align: center; font-family: sans-serif; }
}
.checkin-screen:fullscreen { display: flex; align-items: center; justify-content: center; font-size: 24px; }
.checkin-screen:fullscreen img { width: 70vmin !important; height: 70vmin !important; }`;

/**
 * The store's self check-in QR for the desk: members scan it from their class's start minus
 * CHECKIN_BEFORE_MINUTES until its end. 签到方式 (the manager chooses): 前台屏幕, a screen at the desk
 * whose code changes every minute (a photo of it is useless soon after); or 打印海报, a printed code
 * that changes every day. 更换签到码 changes it now (a printed copy stops working).
 */
export default function CheckinQrModal({ onClose }: { onClose: () => void }) {
  const { modal } = App.useApp();
  const q = useCheckinCode();
  const qc = useQueryClient();
  const store = useStore();
  const canSetMode = useCan(updateCheckinMode);
  const screen = useRef<HTMLDivElement>(null);
  const reset = useWrite(() => call(queryCheckinCode, { reset: true }), { success: '签到码已更换' });
  const setMode = useWrite((checkinMode: CheckinMode) => call(updateCheckinMode, { checkinMode }), {
    success: '签到方式已保存',
  });
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
  const changeMode = async (mode: CheckinMode) => {
    if (await setMode.run(mode)) await qc.invalidateQueries({ queryKey: keys.checkinCode });
  };
  const data = q.data;
  const url = data?.url;
  const isScreen = data?.mode === 'screen';
  return (
    <Modal
      open
      title="会员扫码签到"
      onCancel={onClose}
      footer={[
        <Button key="r" icon={<ReloadOutlined />} onClick={doReset} loading={reset.loading}>
          更换签到码
        </Button>,
        isScreen ? (
          <Button
            key="f"
            type="primary"
            icon={<ExpandOutlined />}
            disabled={!url}
            onClick={() => void screen.current?.requestFullscreen?.()}
          >
            全屏显示
          </Button>
        ) : (
          <Button key="p" type="primary" icon={<PrinterOutlined />} disabled={!url} onClick={() => window.print()}>
            打印
          </Button>
        ),
      ]}
    >
      <style>{PRINT_CSS}</style>
      {data && (
        <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
          <span>
            签到方式：
            {canSetMode ? (
              <Radio.Group
                data-testid="checkin-mode"
                value={data.mode}
                disabled={setMode.loading}
                onChange={(e) => void changeMode(e.target.value as CheckinMode)}
                options={CHECKIN_MODES.map((m) => ({ value: m, label: CHECKIN_MODE_LABEL[m] }))}
              />
            ) : (
              CHECKIN_MODE_LABEL[data.mode]
            )}
          </span>
        </Space>
      )}
      <QrReachWarning url={url} />
      {url && (
        <div ref={screen} className="checkin-screen" style={{ background: '#fff' }}>
          <Space direction="vertical" align="center" style={{ width: '100%' }}>
            <QrImage text={url} size={240} testId="checkin-qr" />
            <Typography.Text>会员用手机扫码，登录后即可签到</Typography.Text>
            <Typography.Text type="secondary" data-testid="checkin-expire">
              开课前{CHECKIN_BEFORE_MINUTES}分钟到下课前可以签到；
              {isScreen
                ? `签到码每分钟自动更换（本码到 ${data.expireTime.slice(11, 16)}），请让此画面一直打开`
                : `签到码 ${data.expireTime.slice(0, 10)} 零点自动更换`}
            </Typography.Text>
          </Space>
        </div>
      )}
      {url &&
        !isScreen &&
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

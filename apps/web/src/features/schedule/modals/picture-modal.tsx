import {
  Msg,
  PICTURE_CAPTURE_TIMEOUT_MS,
  PICTURE_DEFAULT_TITLE,
  PICTURE_DOWNLOAD_DELAY_MS,
  PICTURE_FILE_NAME,
} from '@studio/contract';
import { App, Button, Form, Input, Modal, Radio, Skeleton, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import dayjs from '../../../shared/dayjs.ts';
import { useQrDataUrl } from '../../../shared/qr-image.tsx';
import { QrReachWarning } from '../../../shared/qr-reach.tsx';
import { useMemberPage, useStoreSetting } from '../../../shared/reference.ts';
import { useStoreClock } from '../../../shared/store-time.ts';
import { TimetablePicture } from '../components/timetable-picture.tsx';
import { useWeekSessions } from '../hooks/calendar.ts';
import { sendPicture } from '../hooks/batch.ts';
import { captureNode, CaptureTimeout, DEFAULT_REMINDER, downloadDataUrl, PICTURE_STYLES } from '../lib/picture.ts';
import type { ToolModalProps } from '../types.ts';

const WEEKS = [
  { value: 0, label: '本周' },
  { value: 1, label: '下周' },
  { value: 2, label: '下下周' },
];

/** Generate the weekly timetable picture and download it as 周课表图.png. */
export default function PictureModal({ onClose }: ToolModalProps) {
  const { message } = App.useApp();
  const [week, setWeek] = useState(0);
  const [styleKey, setStyleKey] = useState<(typeof PICTURE_STYLES)[number]['key']>('blue');
  const [title, setTitle] = useState<string>(PICTURE_DEFAULT_TITLE);
  const [reminder, setReminder] = useState(DEFAULT_REMINDER);
  const [busy, setBusy] = useState(false);
  const [countdown, setCountdown] = useState<number | null>(null);
  const node = useRef<HTMLDivElement>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  // This week is the store's (its clock, not the browser's).
  const clock = useStoreClock();
  const monday = clock.day().startOf('week').add(week, 'week').format('YYYY-MM-DD');
  const sunday = dayjs(monday).add(6, 'day').format('YYYY-MM-DD');
  const setting = useStoreSetting();
  // The store's members' page as a QR code: members scan the picture to book.
  const memberPage = useMemberPage();
  const qr = useQrDataUrl(memberPage.data?.url);
  const sessions = useWeekSessions(monday, sunday);

  const generate = async () => {
    if (busy || !node.current) return;
    setBusy(true);
    try {
      const png = await captureNode(node.current, PICTURE_CAPTURE_TIMEOUT_MS);
      // Spec section 9: the download starts 3 s after the picture is made.
      let left = Math.round(PICTURE_DOWNLOAD_DELAY_MS / 1000);
      setCountdown(left);
      const tick = () => {
        left -= 1;
        if (left > 0) {
          setCountdown(left);
          timers.current.push(setTimeout(tick, 1000));
          return;
        }
        setCountdown(null);
        downloadDataUrl(png, `${PICTURE_FILE_NAME}.png`);
        void message.success(Msg.ok);
        setBusy(false);
      };
      timers.current.push(setTimeout(tick, 1000));
    } catch (e) {
      setBusy(false);
      void message.error(
        e instanceof CaptureTimeout
          ? `生成图片超时（${PICTURE_CAPTURE_TIMEOUT_MS / 1000}秒），请检查网络或图片后重试`
          : '生成图片失败，请重试',
      );
    }
  };

  /** Posts the picture to the store's WeCom group robot (the server's message explains a missing webhook). */
  const sendToWecom = async () => {
    if (busy || !node.current) return;
    setBusy(true);
    try {
      await sendPicture(await captureNode(node.current, PICTURE_CAPTURE_TIMEOUT_MS));
      void message.success('已发送到企业微信群');
    } catch (e) {
      if (e instanceof CaptureTimeout) void message.error('生成图片超时，请重试');
    } finally {
      setBusy(false);
    }
  };

  const ready = setting.isSuccess && sessions.isSuccess && (memberPage.isError || qr !== null);
  return (
    <Modal
      open
      title="生成周课表图片"
      width={1080}
      style={{ top: 16 }}
      onCancel={onClose}
      styles={{ body: { maxHeight: 'calc(100vh - 150px)', overflow: 'auto' } }}
      footer={[
        <Button key="c" onClick={onClose}>
          关闭
        </Button>,
        <Button key="w" disabled={!ready || busy} onClick={() => void sendToWecom()}>
          发送到企业微信群
        </Button>,
        <Button key="g" type="primary" loading={busy} disabled={!ready} onClick={generate}>
          {countdown !== null ? `${countdown} 秒后开始下载` : '生成并下载图片'}
        </Button>,
      ]}
    >
      <Form layout="inline" style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item label="周">
          <Radio.Group optionType="button" value={week} onChange={(e) => setWeek(e.target.value)} options={WEEKS} />
        </Form.Item>
        <Form.Item label="背景">
          <Radio.Group
            optionType="button"
            value={styleKey}
            onChange={(e) => setStyleKey(e.target.value)}
            options={PICTURE_STYLES.map((s) => ({ value: s.key, label: s.label }))}
          />
        </Form.Item>
      </Form>
      <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
        <Input
          addonBefore="标题"
          aria-label="标题"
          value={title}
          maxLength={30}
          onChange={(e) => setTitle(e.target.value)}
        />
        <Input.TextArea
          aria-label="温馨提示"
          value={reminder}
          rows={2}
          maxLength={200}
          onChange={(e) => setReminder(e.target.value)}
        />
      </Space>
      <QrReachWarning url={memberPage.data?.url} />
      {ready ? (
        <div style={{ overflowX: 'auto' }}>
          <TimetablePicture
            ref={node}
            monday={monday}
            sessions={sessions.data}
            styleKey={styleKey}
            title={title || PICTURE_DEFAULT_TITLE}
            reminder={reminder}
            storeName={setting.data.storeName}
            logo={setting.data.logo}
            qrCode={qr ?? setting.data.qrCode}
          />
        </div>
      ) : (
        <Skeleton active />
      )}
    </Modal>
  );
}

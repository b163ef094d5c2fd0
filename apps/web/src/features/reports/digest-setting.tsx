import type { AlertDigest } from '@studio/contract';
import { Button, Space, Switch, TimePicker, Typography } from 'antd';
import { useEffect, useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { useAlertDigest, useSaveAlertDigest, type AlertFilter } from './hooks.ts';

/** 每日推送: send the card alerts of the conditions above to the store's WeCom group once a day. */
export function DigestSetting({ filter }: { filter: Required<AlertFilter> }) {
  const q = useAlertDigest();
  const save = useSaveAlertDigest();
  const [enabled, setEnabled] = useState(false);
  const [time, setTime] = useState('09:00');
  useEffect(() => {
    if (!q.data) return;
    setEnabled(q.data.enabled === 1);
    setTime(q.data.time);
  }, [q.data]);
  const submit = () => {
    const d: AlertDigest = { enabled: enabled ? 1 : 0, time, ...filter };
    void save.run(d);
  };
  return (
    <Space wrap style={{ marginTop: 16 }} data-testid="digest-setting">
      <span>每日推送到企业微信群</span>
      <Switch checked={enabled} onChange={setEnabled} aria-label="每日推送" />
      <TimePicker
        format="HH:mm"
        minuteStep={5}
        allowClear={false}
        value={dayjs(`2000-01-01 ${time}`)}
        onChange={(v) => v && setTime(v.format('HH:mm'))}
        disabled={!enabled}
      />
      <Button loading={save.loading} onClick={submit}>
        保存推送设置
      </Button>
      <Typography.Text type="secondary">
        按上面的提醒条件，每天到点推送一次（需在门店设置里填写群机器人地址）
      </Typography.Text>
    </Space>
  );
}

import { Button, Card, Input, Skeleton, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { DownloadableQr } from '../../shared/qr-image.tsx';
import { QrReachWarning } from '../../shared/qr-reach.tsx';
import { useMemberPage } from '../../shared/reference.ts';
import { useSaveMemberPage } from './hooks.ts';

const URL_MSG = '请输入以 http:// 或 https:// 开头的网址，例如 https://yoga.example.com';

/**
 * 会员约课页面: the address members reach the system at, the store's members' page link and its QR
 * code (shown, downloadable, and printed on the weekly timetable picture).
 */
export function MemberPageCard() {
  const q = useMemberPage();
  const save = useSaveMemberPage();
  const [base, setBase] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setBase(q.data?.publicBaseUrl ?? ''), [q.data?.publicBaseUrl]);
  const submit = async () => {
    const v = base.trim();
    if (v && !/^https?:\/\/[^\s/?#]+\/?$/.test(v)) return setError(URL_MSG);
    setError(null);
    await save.run(v);
  };
  return (
    <Card title="会员约课页面" size="small">
      {!q.data ? (
        <Skeleton active />
      ) : (
        <Space align="start" size={24}>
          <DownloadableQr text={q.data.url} testId="member-page-qr" fileName="会员约课二维码.png" />
          <Space direction="vertical" style={{ width: 300 }}>
            <Typography.Text type="secondary">
              会员扫码即可查看课表、预约和签到。二维码也印在周课表图片上。
            </Typography.Text>
            <Typography.Text copyable data-testid="member-page-url">
              {q.data.url}
            </Typography.Text>
            <QrReachWarning url={q.data.url} />
            <div>公开地址：会员手机访问的网址（不填则用当前网址）</div>
            <Input
              data-testid="member-base-url"
              placeholder="https://yoga.example.com"
              value={base}
              status={error ? 'error' : undefined}
              onChange={(e) => setBase(e.target.value)}
            />
            {error && <Typography.Text type="danger">{error}</Typography.Text>}
            <Button type="primary" loading={save.loading} onClick={submit}>
              保存
            </Button>
          </Space>
        </Space>
      )}
    </Card>
  );
}

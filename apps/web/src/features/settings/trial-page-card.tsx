import { Card, Skeleton, Space, Typography } from 'antd';
import { DownloadableQr } from '../../shared/qr-image.tsx';
import { useMemberPage } from '../../shared/reference.ts';

/**
 * 体验课报名页面: the store's public sign-up page for strangers (issue 44), its link and QR code to
 * print on flyers or post in WeChat groups; a sign-up is a 线上报名 lead in 潜客 (公海).
 */
export function TrialPageCard() {
  const q = useMemberPage();
  return (
    <Card title="体验课报名页面" size="small">
      {!q.data ? (
        <Skeleton active />
      ) : (
        <Space align="start" size={24}>
          <DownloadableQr text={q.data.trialUrl} testId="trial-page-qr" fileName="体验课报名二维码.png" />
          <Space direction="vertical" style={{ width: 300 }}>
            <Typography.Text type="secondary">
              新客扫码无需登录即可报名体验课，报名后出现在潜客的公海中（来源：线上报名）。会员在手机「我的」里有自己的推荐二维码（来源：转介绍）。
            </Typography.Text>
            <Typography.Text copyable data-testid="trial-page-url">
              {q.data.trialUrl}
            </Typography.Text>
          </Space>
        </Space>
      )}
    </Card>
  );
}

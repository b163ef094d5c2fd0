import { memberReferral } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, DotLoading, Toast } from 'antd-mobile';
import { call } from './api.ts';
import { useQr } from './order-wait.tsx';
import './trial.css';

/** Private to the member signed in: never kept once the screen is left (gcTime 0). */
const KEY = ['referral'];

/**
 * 我的 → 推荐好友: the member's referral link (the store's 体验课报名 page with their code) as a QR
 * code a friend scans, and the link to copy and send. A friend who signs up through it is a 转介绍
 * lead naming the member.
 */
export function Referral() {
  const q = useQuery({ queryKey: KEY, queryFn: () => call(memberReferral, {}), gcTime: 0 });
  const qr = useQr(q.data?.url ?? null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(q.data!.url);
      Toast.show({ icon: 'success', content: '链接已复制，发给好友吧' });
    } catch {
      Toast.show({ content: '复制失败，请长按链接复制' });
    }
  };
  return (
    <section className="referral" data-testid="referral" aria-labelledby="referral-title">
      <h2 id="referral-title">推荐好友</h2>
      <div className="hint" style={{ marginTop: 0 }}>
        好友扫码或打开链接报名体验课，门店会记下是您推荐的。
      </div>
      {!q.data || !qr ? (
        <div style={{ padding: 24 }}>{q.error ? q.error.message : <DotLoading />}</div>
      ) : (
        <>
          <img src={qr} alt="我的推荐二维码" data-testid="referral-qr" />
          <div className="link" data-testid="referral-link">
            {q.data.url}
          </div>
          <Button
            className="touch"
            fill="outline"
            color="primary"
            style={{ marginTop: 12 }}
            onClick={() => void copy()}
          >
            复制推荐链接
          </Button>
        </>
      )}
    </section>
  );
}

import { MARKETING_STOP, memberUnsubscribe, memberUnsubscribeInfo } from '@studio/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DotLoading, Result } from 'antd-mobile';
import { call } from './api.ts';

const infoKey = (token: string) => ['unsubscribe', token];

/**
 * 退订营销短信: the page a marketing text's link opens (?u=TOKEN), no sign-in. It names the store; one
 * tap withdraws the marketing consent of that mobile in the store (members and leads alike), then
 * 已退订. The tap, not the opening, withdraws: a phone's link preview fetching the page changes nothing.
 */
export function Unsubscribe({ token }: { token: string }) {
  const qc = useQueryClient();
  const info = useQuery({
    queryKey: infoKey(token),
    queryFn: ({ signal }) => call(memberUnsubscribeInfo, { token }, { signal }),
    retry: false,
  });
  const stop = useMutation({
    mutationFn: () => call(memberUnsubscribe, { token }),
    onSuccess: () => qc.invalidateQueries({ queryKey: infoKey(token) }),
  });
  if (info.error) {
    return (
      <main className="page">
        <h1 className="sr-only">退订营销短信</h1>
        <Result status="error" title={info.error.message} description="请确认链接完整，或回复短信“T”退订" />
      </main>
    );
  }
  if (!info.data) {
    return (
      <main className="empty">
        <h1 className="sr-only">退订营销短信</h1>
        <DotLoading color="primary" />
      </main>
    );
  }
  const done = info.data.unsubscribed || stop.isSuccess;
  return (
    <main className="page" data-testid="unsubscribe">
      <h1 className="sr-only">退订营销短信</h1>
      {done ? (
        <Result
          status="success"
          title="已退订"
          description={`您不会再收到${info.data.storeName}的营销短信；验证码和预约通知不受影响。`}
        />
      ) : (
        <Result
          status="info"
          title={`退订${info.data.storeName}的营销短信`}
          description={`退订后不再收到活动和优惠短信（也可回复“${MARKETING_STOP.slice(1, 2)}”退订）；验证码和预约通知不受影响。`}
        />
      )}
      {!done && (
        <div className="actions" style={{ padding: 16 }}>
          <Button
            block
            color="primary"
            size="large"
            data-testid="unsubscribe-submit"
            loading={stop.isPending}
            onClick={() => stop.mutate()}
          >
            退订
          </Button>
        </div>
      )}
    </main>
  );
}

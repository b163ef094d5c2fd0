import { memberBindWechat, memberQueryNotifyPref, memberUpdateNotifyPref, type NotifyKind } from '@studio/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DotLoading, List, Switch, Toast } from 'antd-mobile';
import { useEffect } from 'react';
import { call } from './api.ts';

/** Private to the member signed in: never kept once the screen is left (gcTime 0). */
const KEY = ['notify-pref'];

const params = new URLSearchParams(window.location.search);
const inWechat = /MicroMessenger/i.test(navigator.userAgent);
/** Back from WeChat's web authorisation for the reminders (state=notify): its one-use code. */
let bindCode: string | null = inWechat && params.get('state') === 'notify' ? params.get('code') : null;

/** Whether the page came back from WeChat's authorisation for the reminders (opens 我的). */
export const backFromWechatBind = bindCode !== null;

/** WeChat's web authorisation (snsapi_base) of the service account, back to this page. */
function authorizeUrl(appId: string): string {
  const back = new URL(window.location.href);
  back.searchParams.delete('code');
  back.searchParams.delete('state');
  const q = new URLSearchParams({
    appid: appId,
    redirect_uri: back.toString(),
    response_type: 'code',
    scope: 'snsapi_base',
    state: 'notify',
  });
  return `https://open.weixin.qq.com/connect/oauth2/authorize?${q.toString()}#wechat_redirect`;
}

/**
 * 我的 → 消息提醒: a switch per kind of reminder (上课提醒, 候补成功...); inside WeChat, the binding
 * of the member's WeChat so that reminders come as service-account messages instead of texts.
 */
export function NotifyPrefs() {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: () => call(memberQueryNotifyPref, {}), gcTime: 0 });
  const fail = (e: Error) => Toast.show({ content: e.message, duration: 3000 });
  const change = useMutation({
    mutationFn: (v: { kind: NotifyKind; on: boolean }) => call(memberUpdateNotifyPref, v),
    onSuccess: (_r, v) => {
      Toast.show({ icon: 'success', content: v.on ? '已打开' : '已关闭' });
      void qc.invalidateQueries({ queryKey: KEY });
    },
    onError: fail,
  });
  const bind = useMutation({
    mutationFn: (code: string) => call(memberBindWechat, { code }),
    onSuccess: () => {
      Toast.show({ icon: 'success', content: '已绑定微信，提醒将通过公众号发送' });
      void qc.invalidateQueries({ queryKey: KEY });
    },
    onError: fail,
  });
  useEffect(() => {
    if (!bindCode) return;
    const code = bindCode;
    bindCode = null;
    bind.mutate(code);
  }, [bind]);

  if (!q.data) {
    return (
      <div style={{ padding: 24, textAlign: 'center' }}>
        <DotLoading />
      </div>
    );
  }
  const d = q.data;
  return (
    <div data-testid="notify-prefs">
      <List header="消息提醒">
        {d.kinds.map((k) => (
          <List.Item
            key={k.kind}
            extra={
              <Switch
                checked={k.on}
                loading={change.isPending && change.variables?.kind === k.kind}
                onChange={(on) => change.mutate({ kind: k.kind, on })}
                aria-label={k.label}
                data-testid={`notify-switch-${k.kind}`}
              />
            }
          >
            {k.label}
          </List.Item>
        ))}
      </List>
      <div style={{ padding: '8px 16px', color: '#595959', fontSize: 13 }}>
        关闭后不再收到这一类提醒。22:00 到次日 08:00 不发送（即将开始的课程除外）。
      </div>
      {d.wechatAppId && (
        <List header="微信">
          <List.Item
            extra={
              d.wechatBound ? (
                '已绑定'
              ) : inWechat ? (
                <Button
                  size="small"
                  color="primary"
                  onClick={() => window.location.assign(authorizeUrl(d.wechatAppId!))}
                >
                  绑定微信
                </Button>
              ) : (
                '请在微信中打开本页绑定'
              )
            }
            description="绑定后通过门店公众号接收提醒，不再发短信"
          >
            公众号消息
          </List.Item>
        </List>
      )}
    </div>
  );
}

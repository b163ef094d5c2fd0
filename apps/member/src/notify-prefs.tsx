import {
  memberBindWechat,
  memberQueryNotifyPref,
  memberUpdateNotifyPref,
  memberWechatAuth,
  memberWechatState,
  type NotifyKind,
} from '@studio/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DotLoading, List, Switch, Toast } from 'antd-mobile';
import { useEffect } from 'react';
import { call } from './api.ts';
import { NOTIFY_STATE_KEY } from './wechat-state.ts';

/** Private to the member signed in: never kept once the screen is left (gcTime 0). */
const KEY = ['notify-pref'];

const params = new URLSearchParams(window.location.search);
const inWechat = /MicroMessenger/i.test(navigator.userAgent);

/** WeChat's one-use code and its state, kept (this tab only) from the page's return until bound. */
const CODE_KEY = 'wxNotifyCode';
/** The page asked WeChat's authorisation once in this tab: not again (no loop, one silent hop). */
const ASKED_KEY = 'wxNotifyAsked';

function pendingState(): { state: string; me: boolean } | null {
  try {
    return JSON.parse(sessionStorage.getItem(NOTIFY_STATE_KEY) ?? 'null') as { state: string; me: boolean } | null;
  } catch {
    return null;
  }
}

const pending = pendingState();
const backState = params.get('state');
const backCode = inWechat && pending && backState === pending.state ? params.get('code') : null;
if (backCode && backState) {
  sessionStorage.setItem(CODE_KEY, JSON.stringify({ code: backCode, state: backState }));
  sessionStorage.removeItem(NOTIFY_STATE_KEY);
  // The code is used once, by the binding: not left in the address (a reload, a shared link).
  // (and WeChat's #wechat_redirect, which the browser keeps across the redirect back)
  const clean = new URL(window.location.href);
  clean.searchParams.delete('code');
  clean.searchParams.delete('state');
  if (clean.hash === '#wechat_redirect') clean.hash = '';
  window.history.replaceState(null, '', clean.toString());
}

/** Whether the page came back from 我的's 绑定微信 (opens 我的 again). */
export const backFromWechatBind = backCode !== null && pending?.me === true;

/** WeChat's web authorisation (snsapi_base) of the store's service account, back to this page. */
function authorizeUrl(auth: { appId: string; authorizeUrl: string }, state: string): string {
  const back = new URL(window.location.href);
  back.searchParams.delete('code');
  back.searchParams.delete('state');
  back.hash = '';
  const q = new URLSearchParams({
    appid: auth.appId,
    redirect_uri: back.toString(),
    response_type: 'code',
    scope: 'snsapi_base',
    state,
  });
  return `${auth.authorizeUrl}?${q.toString()}#wechat_redirect`;
}

/**
 * Off to WeChat's authorisation with a state the server gives the member's session (used once, 10
 * minutes): the code that comes back binds only with it.
 */
async function goAuthorize(auth: { appId: string; authorizeUrl: string }, me: boolean, replace: boolean) {
  const { state } = await call(memberWechatState, {});
  sessionStorage.setItem(NOTIFY_STATE_KEY, JSON.stringify({ state, me }));
  const url = authorizeUrl(auth, state);
  if (replace) window.location.replace(url);
  else window.location.assign(url);
}

/** The store's service account and WeChat's authorisation page (no sign-in needed). */
function useWechatAuth(storeId: number | null, enabled = true) {
  return useQuery({
    queryKey: ['wechat-auth', storeId],
    queryFn: () => call(memberWechatAuth, { storeId: storeId! }),
    enabled: enabled && inWechat && storeId !== null,
    staleTime: Infinity,
  });
}

/**
 * Opened inside WeChat, once per tab, once the member is signed in and their WeChat is not bound, when
 * the store has a service account: off to WeChat's silent authorisation (snsapi_base) with a state of
 * this session, which sends the page back with a code for the member's openid. Answers whether the
 * page is leaving for it.
 */
export function useWechatAuthorize(storeId: number | null, signedIn: boolean): boolean {
  const first = inWechat && signedIn && !backCode && !sessionStorage.getItem(ASKED_KEY);
  const q = useWechatAuth(storeId, first);
  const auth = q.data;
  const mine = useQuery({
    queryKey: ['notify-pref-open'],
    queryFn: () => call(memberQueryNotifyPref, {}),
    enabled: first && Boolean(auth?.appId),
    gcTime: 0,
  });
  const leaving = first && Boolean(auth?.appId) && mine.data !== undefined && !mine.data.wechatBound;
  useEffect(() => {
    if (!leaving || !auth?.appId) return;
    sessionStorage.setItem(ASKED_KEY, '1');
    goAuthorize({ appId: auth.appId, authorizeUrl: auth.authorizeUrl }, false, true).catch((e: Error) =>
      Toast.show({ content: e.message, duration: 3000 }),
    );
  }, [leaving, auth]);
  return leaving || (first && (q.isLoading || (Boolean(auth?.appId) && mine.isLoading)));
}

/**
 * Once the member is signed in, the code WeChat's authorisation gave (with this session's state) binds
 * their openid (unless they have one bound): reminders then come by the service account.
 */
export function useWechatBinding(signedIn: boolean): void {
  const qc = useQueryClient();
  useEffect(() => {
    const kept = signedIn ? sessionStorage.getItem(CODE_KEY) : null;
    if (!kept) return;
    sessionStorage.removeItem(CODE_KEY);
    void (async () => {
      try {
        const { code, state } = JSON.parse(kept) as { code: string; state: string };
        const mine = await call(memberQueryNotifyPref, {});
        if (mine.wechatBound || !mine.wechatAppId) return;
        await call(memberBindWechat, { code, state });
        Toast.show({ icon: 'success', content: '已绑定微信，提醒将通过公众号发送' });
        void qc.invalidateQueries({ queryKey: KEY });
      } catch (e) {
        Toast.show({ content: (e as Error).message, duration: 3000 });
      }
    })();
  }, [signedIn, qc]);
}

/**
 * 我的 → 消息提醒: a switch per kind of reminder (上课提醒, 候补成功...); inside WeChat, the binding
 * of the member's WeChat so that reminders come as service-account messages instead of texts.
 */
export function NotifyPrefs({ storeId }: { storeId: number | null }) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: () => call(memberQueryNotifyPref, {}), gcTime: 0 });
  const auth = useWechatAuth(storeId).data;
  const fail = (e: Error) => Toast.show({ content: e.message, duration: 3000 });
  const change = useMutation({
    mutationFn: (v: { kind: NotifyKind; on: boolean }) => call(memberUpdateNotifyPref, v),
    onSuccess: (_r, v) => {
      Toast.show({ icon: 'success', content: v.on ? '已打开' : '已关闭' });
      void qc.invalidateQueries({ queryKey: KEY });
    },
    onError: fail,
  });
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
                '已绑定微信'
              ) : inWechat && auth?.appId ? (
                <Button
                  size="small"
                  color="primary"
                  onClick={() => {
                    goAuthorize({ appId: auth.appId!, authorizeUrl: auth.authorizeUrl }, true, false).catch(fail);
                  }}
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

import {
  CONSENT_LABEL,
  CONSENT_WAY_LABEL,
  memberAskErasure,
  memberMyData,
  memberMyPrivacy,
  memberUpdateConsent,
  memberWithdrawErasure,
  PRIVACY_NOTICE,
  type ConsentKind,
} from '@studio/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, DotLoading, List, Switch, TextArea, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { call } from './api.ts';

/** Private to the member signed in: never kept once the screen is left (gcTime 0). */
const KEY = ['privacy'];
const DATA_KEY = ['privacy', 'data'];

const fail = (e: Error) => Toast.show({ content: e.message, duration: 3000 });

function usePrivacy() {
  return useQuery({ queryKey: KEY, queryFn: () => call(memberMyPrivacy, {}), gcTime: 0 });
}

function useConsent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { kind: ConsentKind; granted: boolean }) => call(memberUpdateConsent, v),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: KEY });
      // The health consent withdrawn deletes the declaration (我的 → 健康声明 shows it).
      void qc.invalidateQueries({ queryKey: ['health'] });
    },
    onError: fail,
  });
}

/**
 * The privacy notice (个人信息保护说明) until the member agrees to its version: a panel at the top of
 * the page, the page usable meanwhile (their cards and bookings were made at the desk already).
 */
export function PrivacyNotice() {
  const q = usePrivacy();
  const consent = useConsent();
  if (!q.data?.needsNotice) return null;
  return (
    <section className="privacy-notice" aria-labelledby="privacy-notice-title" data-testid="privacy-notice">
      <h2 id="privacy-notice-title">个人信息保护说明</h2>
      {PRIVACY_NOTICE.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <Button
        color="primary"
        size="small"
        loading={consent.isPending}
        onClick={() =>
          consent.mutate(
            { kind: 'privacy', granted: true },
            { onSuccess: () => Toast.show({ icon: 'success', content: '已同意' }) },
          )
        }
      >
        我已阅读并同意
      </Button>
    </section>
  );
}

/** Saves `text` as a file named `name` on the phone. */
function saveFile(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** 我的信息: what the store holds about me, part by part, to download as Excel or JSON. */
function MyData({ onBack }: { onBack: () => void }) {
  const q = useQuery({ queryKey: DATA_KEY, queryFn: () => call(memberMyData, {}), gcTime: 0 });
  const day = q.data?.generatedAt.slice(0, 10).replaceAll('-', '') ?? '';
  // Opened from 我的, below the reminders: brought into view.
  const top = useRef<HTMLDivElement>(null);
  useEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
  }, []);
  return (
    <div data-testid="my-data" ref={top}>
      <List header="门店保存的我的信息">
        {q.data ? (
          q.data.sections.map((s) => (
            <List.Item key={s.key} extra={`${s.rows.length} 条`}>
              {s.title}
            </List.Item>
          ))
        ) : q.error ? (
          <List.Item>{q.error.message}</List.Item>
        ) : (
          <List.Item>
            <DotLoading />
          </List.Item>
        )}
      </List>
      <div className="privacy-actions">
        <a className="adm-button adm-button-primary adm-button-block touch" href="/member/files/my-data.xlsx" download>
          下载 Excel
        </a>
        <Button
          block
          disabled={!q.data}
          onClick={() =>
            q.data && saveFile(`我的信息-${day}.json`, JSON.stringify(q.data, null, 2), 'application/json')
          }
        >
          下载 JSON
        </Button>
        <Button block fill="none" onClick={onBack}>
          返回
        </Button>
      </div>
    </div>
  );
}

/** Asks the reason and sends the request to delete the account. */
async function askToDelete(send: (reason: string | null) => Promise<unknown>) {
  let reason = '';
  const ok = await Dialog.confirm({
    title: '申请删除账号',
    content: (
      <div>
        <p>
          门店同意后，你的姓名、手机号等个人信息将被删除，无法再登录；付款和会员卡记录按规定保留，但不再显示你的身份。
        </p>
        <p>请先用完或退掉会员卡、取消未上的课程。</p>
        <TextArea placeholder="原因（选填）" maxLength={200} onChange={(v) => (reason = v)} aria-label="删除原因" />
      </div>
    ),
    confirmText: '提交申请',
    cancelText: '再想想',
  });
  if (ok) await send(reason.trim() || null);
}

/** 我的 → 个人信息: consents, my data, and deleting my account. */
export function MyPrivacy() {
  const qc = useQueryClient();
  const q = usePrivacy();
  const consent = useConsent();
  const [viewing, setViewing] = useState(false);
  const refresh = () => void qc.invalidateQueries({ queryKey: KEY });
  const ask = useMutation({
    mutationFn: (reason: string | null) => call(memberAskErasure, { reason }),
    onSuccess: (r) => {
      Toast.show({ icon: 'success', content: `已提交，门店会在 ${r.dueDate} 前处理` });
      refresh();
    },
    onError: fail,
  });
  const withdraw = useMutation({
    mutationFn: () => call(memberWithdrawErasure, {}),
    onSuccess: () => {
      Toast.show({ icon: 'success', content: '已撤回删除申请' });
      refresh();
    },
    onError: fail,
  });
  if (viewing) return <MyData onBack={() => setViewing(false)} />;
  if (!q.data) {
    return (
      <div style={{ padding: 24, textAlign: 'center' }}>
        <DotLoading />
      </div>
    );
  }
  const d = q.data;
  const granted = (k: ConsentKind) => d.current.find((c) => c.kind === k)?.granted ?? false;
  const latest = d.history[0];
  return (
    <div data-testid="my-privacy">
      <List header="个人信息">
        {(['marketing', 'health'] as const).map((k) => (
          <List.Item
            key={k}
            description={k === 'health' ? '用于上课前的健康声明，只给需要的老师看' : '活动和优惠消息，随时可以关闭'}
            extra={
              <Switch
                checked={granted(k)}
                loading={consent.isPending && consent.variables?.kind === k}
                onChange={async (on) => {
                  // Withdrawing the health consent deletes the declarations: said before it is done.
                  if (k === 'health' && !on) {
                    const ok = await Dialog.confirm({
                      content: '撤回后门店会删除你的健康声明，上课前可能需要重新填写。确定撤回吗？',
                      confirmText: '撤回',
                      cancelText: '不撤回',
                    });
                    if (!ok) return;
                  }
                  consent.mutate({ kind: k, granted: on });
                }}
                aria-label={CONSENT_LABEL[k]}
                data-testid={`consent-${k}`}
              />
            }
          >
            {CONSENT_LABEL[k]}
          </List.Item>
        ))}
        <List.Item onClick={() => setViewing(true)} arrow>
          查看和下载我的信息
        </List.Item>
        {d.erasure ? (
          <List.Item
            description={`已于 ${d.erasure.requestedAt.slice(0, 16)} 申请，门店会在 ${d.erasure.dueDate} 前处理`}
            extra={
              <Button size="small" loading={withdraw.isPending} onClick={() => withdraw.mutate()}>
                撤回申请
              </Button>
            }
          >
            删除账号申请处理中
          </List.Item>
        ) : (
          <List.Item onClick={() => void askToDelete((r) => ask.mutateAsync(r))} arrow>
            申请删除账号
          </List.Item>
        )}
      </List>
      {latest && (
        <div className="privacy-note">
          最近一次：{latest.at.slice(0, 16)} {CONSENT_WAY_LABEL[latest.way]}
          {latest.granted ? '同意' : '撤回'}「{CONSENT_LABEL[latest.kind]}」
        </div>
      )}
    </div>
  );
}

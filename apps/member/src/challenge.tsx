// The proof-of-work check (ALTCHA) asked for once an address has used its free code requests. Loaded
// only then (its own chunk). The "external" build keeps the page's CSP: its worker is a file of this
// origin, its styles a stylesheet, nothing from another site.
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/zh-cn';
import workerUrl from 'altcha/worker?url&no-inline';
import { createElement, useEffect, useMemo, useRef } from 'react';
import { useChallenge } from './queries.ts';

globalThis.altchaI18n.set('zh-cn', {
  ...globalThis.altchaI18n.get('zh-cn'),
  label: '安全验证',
  verifying: '手机正在自动验证，约需1秒…',
  verified: '验证通过',
  error: '验证失败，请点此重试',
  expired: '验证已过期，请点此重试',
});

/**
 * Fetches a challenge and lets the widget solve it at once (no tap needed); `onSolved` gets the
 * payload to send as `altcha` with the code request. One payload serves one request.
 */
export default function Challenge({ onSolved }: { onSolved: (payload: string) => void }) {
  const holder = useRef<HTMLDivElement>(null);
  const { data: challenge, error } = useChallenge();
  const json = useMemo(() => (challenge ? JSON.stringify(challenge) : null), [challenge]);
  const solved = useRef(onSolved);
  solved.current = onSolved;

  useEffect(() => {
    const widget = holder.current?.querySelector('altcha-widget');
    if (!widget) return;
    const onChange = (ev: Event) => {
      const { state, payload } = (ev as AltchaStateChangeEvent).detail;
      if (state === 'verified' && payload) solved.current(payload);
    };
    widget.addEventListener('statechange', onChange);
    return () => widget.removeEventListener('statechange', onChange);
  }, [json]);

  if (error) return <div className="err">{error.message}</div>;
  if (!json) return <div className="hint">正在准备安全验证…</div>;
  return (
    <div className="challenge" ref={holder} data-testid="challenge">
      {createElement('altcha-widget', {
        challengejson: json,
        auto: 'onload',
        language: 'zh-cn',
        workerurl: workerUrl,
        hidelogo: true,
        hidefooter: true,
      })}
    </div>
  );
}

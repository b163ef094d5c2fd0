import { MemberMsg, memberTrialForm, memberTrialSignup, TrialMsg, type ReqOf } from '@studio/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Checkbox, DotLoading, Form, Input, Result, Selector, Toast } from 'antd-mobile';
import { lazy, Suspense, useState } from 'react';
import { call } from './api.ts';
import './trial.css';

/** The proof-of-work check, in its own chunk: asked for only past the network's or the store's free sign-ups. */
const Challenge = lazy(() => import('./challenge.tsx'));

/** The store's courses to choose from: the same for anyone (public). */
const formKey = (storeId: number) => ['trial-form', storeId];

const TIMES = ['工作日白天', '工作日晚上', '周末上午', '周末下午'];

type Field = 'name' | 'mobile' | 'interests' | 'preferredTimes';

/** memberTrialSignup's checks, in its words. */
function check(r: { name: string; mobile: string; interests: string; preferredTimes: string }) {
  const e: Partial<Record<Field, string>> = {};
  const name = r.name.trim();
  if (!name) e.name = TrialMsg.name;
  else if (name.length > 32) e.name = TrialMsg.nameLong;
  if (!/^1\d{10}$/.test(r.mobile.trim())) e.mobile = TrialMsg.mobile;
  if (!r.interests) e.interests = TrialMsg.interest;
  else if (r.interests.length > 200) e.interests = TrialMsg.interestLong;
  if (r.preferredTimes.length > 100) e.preferredTimes = TrialMsg.timesLong;
  return e;
}

/**
 * 体验课报名: the page a stranger opens from the store's link or QR (?store=ID&trial=1, and a
 * member's referral code as &ref=), without signing in: name, mobile, the courses they want to try
 * (the store's, or their own words) and when suits them; checked with the contract's messages
 * before it is sent; then a thank-you.
 */
export function TrialSignup({ storeId, referral }: { storeId: number; referral: string | null }) {
  const form = useQuery({
    queryKey: formKey(storeId),
    queryFn: ({ signal }) => call(memberTrialForm, { storeId }, { signal }),
    staleTime: Infinity,
  });
  const [name, setName] = useState('');
  const [mobile, setMobile] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [other, setOther] = useState('');
  const [times, setTimes] = useState<string[]>([]);
  // 同意接收营销短信: unticked unless the person ticks it (recorded as the lead's consent, 线上报名).
  const [marketing, setMarketing] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [checking, setChecking] = useState(false);
  const [done, setDone] = useState(false);
  const send = useMutation({
    mutationFn: (req: ReqOf<typeof memberTrialSignup>) => call(memberTrialSignup, req),
  });

  const submit = async (altcha?: string) => {
    const req = {
      storeId,
      name: name.trim(),
      mobile: mobile.trim(),
      interests: [...picked, other.trim()].filter(Boolean).join('、'),
      preferredTimes: times.join('、'),
      ref: referral,
      marketing,
      ...(altcha ? { altcha } : {}),
    };
    // the contract's rules and words, before anything is sent (the page has no zod)
    const next = check(req);
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      await send.mutateAsync(req);
      setChecking(false);
      setDone(true);
    } catch (e) {
      const msg = (e as Error).message;
      // past the free sign-ups the check is asked for (again, when a used or expired answer was sent)
      if (msg === TrialMsg.needChallenge || msg === MemberMsg.badChallenge) {
        setChecking(false);
        setTimeout(() => setChecking(true), 0);
        return;
      }
      setChecking(false);
      Toast.show({ content: msg, duration: 3000 });
    }
  };

  if (done) {
    return (
      <div className="trial" data-testid="trial-thanks">
        <Result status="success" title="报名成功" description={TrialMsg.thanks} />
        <div className="hint" style={{ textAlign: 'center' }}>
          门店的老师会通过 {mobile.trim()} 联系您，约好体验课的时间。
        </div>
        <div className="actions">
          <Button block size="large" onClick={() => window.location.assign(`?store=${storeId}`)}>
            看看门店课表
          </Button>
        </div>
      </div>
    );
  }
  if (!form.data) {
    return <div className="empty">{form.error ? form.error.message : <DotLoading color="primary" />}</div>;
  }
  const err = (f: Field) =>
    errors[f] ? (
      <div className="err" role="alert" data-testid={`err-${f}`}>
        {errors[f]}
      </div>
    ) : null;

  return (
    <div className="trial" data-testid="trial-form">
      <h2>免费体验课报名</h2>
      <p className="hint">留下联系方式，门店会尽快联系您安排体验课。</p>
      <Form layout="vertical">
        <Form.Item label="您的姓名" required>
          <Input
            data-testid="trial-name"
            placeholder="怎么称呼您"
            value={name}
            onChange={setName}
            maxLength={40}
            clearable
          />
          {err('name')}
        </Form.Item>
        <Form.Item label="手机号" required>
          <Input
            data-testid="trial-mobile"
            type="tel"
            inputMode="numeric"
            placeholder="11位手机号"
            value={mobile}
            onChange={setMobile}
            maxLength={11}
            clearable
          />
          {err('mobile')}
        </Form.Item>
        <Form.Item label="想体验的课程" required>
          {form.data.interests.length > 0 && (
            <Selector
              multiple
              columns={2}
              options={form.data.interests.map((c) => ({ label: c, value: c }))}
              value={picked}
              onChange={setPicked}
            />
          )}
          <Input
            className="trial-other"
            data-testid="trial-other"
            placeholder={form.data.interests.length > 0 ? '其他想体验的（选填）' : '如：瑜伽、普拉提'}
            value={other}
            onChange={setOther}
            maxLength={100}
            aria-label="其他想体验的课程"
          />
          {err('interests')}
        </Form.Item>
        <Form.Item label="方便的时间（选填）">
          <Selector
            multiple
            columns={2}
            options={TIMES.map((t) => ({ label: t, value: t }))}
            value={times}
            onChange={setTimes}
          />
          {err('preferredTimes')}
        </Form.Item>
      </Form>
      <div className="trial-consent">
        <Checkbox data-testid="trial-marketing" checked={marketing} onChange={setMarketing}>
          我同意接收门店的活动和优惠短信（可随时回复T退订）
        </Checkbox>
      </div>
      {checking && (
        <div className="check">
          <div className="hint">报名的人较多，需要先完成安全验证（手机自动计算，约需1秒），通过后自动提交。</div>
          <Suspense fallback={<div className="hint">正在准备安全验证…</div>}>
            <Challenge onSolved={(payload) => void submit(payload)} />
          </Suspense>
        </div>
      )}
      <div className="actions">
        <Button
          block
          color="primary"
          size="large"
          data-testid="trial-submit"
          loading={send.isPending}
          disabled={checking}
          onClick={() => void submit()}
        >
          提交报名
        </Button>
      </div>
      <p className="hint">您的手机号仅用于门店联系您安排体验课。</p>
    </div>
  );
}

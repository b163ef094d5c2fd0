import { LOGIN_CODE, MemberMsg, type MemberIdentity } from '@studio/contract';
import { Button, Input, Toast } from 'antd-mobile';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { StoreInfo } from './api.ts';
import { useLogin, useSendCode } from './writes.ts';

/** The proof-of-work check, in its own chunk: most members never need it. */
const Challenge = lazy(() => import('./challenge.tsx'));

const MOBILE_MSG = '请输入正确的11位手机号';
const CODE_MSG = '请输入6位数字验证码';

/** Sign-in with the mobile on file and a one-time code (by SMS, or from the desk). */
export function Login({
  store,
  onDone,
  onBack,
}: {
  store: StoreInfo;
  onDone: (who: MemberIdentity) => void;
  onBack: () => void;
}) {
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ mobile?: string; code?: string }>({});
  const [wait, setWait] = useState(0);
  const [checking, setChecking] = useState(false);
  const { mutateAsync: askCode } = useSendCode();
  const login = useLogin();

  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const mobileOk = /^1\d{10}$/.test(mobile.trim());
  /** Asks for a code; past this network's free requests the server asks for the check first. */
  const sendCode = async (altcha?: string) => {
    if (!mobileOk) return setErrors({ mobile: MOBILE_MSG });
    setErrors({});
    try {
      await askCode({ storeId: store.storeId, mobile: mobile.trim(), ...(altcha ? { altcha } : {}) });
      setChecking(false);
      setWait(LOGIN_CODE.gapMs / 1000);
      Toast.show({ content: MemberMsg.codeSent });
    } catch (e) {
      const msg = (e as Error).message;
      // the check is asked for (again, when a used or expired answer was sent): show it, it solves itself
      if (msg === MemberMsg.needChallenge || msg === MemberMsg.badChallenge) {
        setChecking(false);
        setTimeout(() => setChecking(true), 0);
        return;
      }
      setChecking(false);
      Toast.show({ content: msg, duration: 3000 });
    }
  };
  const submit = async () => {
    const next: typeof errors = {};
    if (!mobileOk) next.mobile = MOBILE_MSG;
    if (!/^\d{6}$/.test(code.trim())) next.code = CODE_MSG;
    setErrors(next);
    if (next.mobile || next.code) return;
    try {
      onDone(await login.mutateAsync({ storeId: store.storeId, mobile: mobile.trim(), code: code.trim() }));
    } catch (e) {
      setErrors({ code: (e as Error).message });
    }
  };

  return (
    <div className="login">
      <div className="field">
        <Input
          data-testid="mobile"
          type="tel"
          inputMode="numeric"
          maxLength={11}
          placeholder="在本店登记的手机号"
          value={mobile}
          onChange={setMobile}
          clearable
        />
      </div>
      <div className="err">{errors.mobile}</div>
      <div className="field code-row">
        <Input
          data-testid="code"
          inputMode="numeric"
          maxLength={6}
          placeholder="6位验证码"
          value={code}
          onChange={setCode}
          onEnterPress={submit}
        />
        <Button
          className="touch"
          fill="none"
          color="primary"
          disabled={wait > 0 || checking}
          onClick={() => sendCode()}
        >
          {wait > 0 ? `${wait}秒后重发` : '获取验证码'}
        </Button>
      </div>
      <div className="err">{errors.code}</div>
      {checking && (
        <div className="check">
          <div className="hint">
            同一网络获取验证码的次数较多，需要先完成安全验证（手机自动计算，约需1秒），通过后自动发送验证码。
          </div>
          <Suspense fallback={<div className="hint">正在准备安全验证…</div>}>
            <Challenge onSolved={(payload) => void sendCode(payload)} />
          </Suspense>
        </div>
      )}
      <div className="actions">
        <Button block color="primary" size="large" loading={login.isPending} onClick={submit}>
          登录
        </Button>
        <Button block size="large" onClick={onBack}>
          先看看课表
        </Button>
      </div>
      <div className="hint">
        收不到短信？请到前台领取登录验证码（10分钟内有效）。
        {store.deductionMode === 1 ? '本店在签到时扣除会员卡。' : '本店在预约时扣除会员卡，取消后退回。'}
      </div>
    </div>
  );
}

import { memberLogin, memberSendCode, type MemberIdentity } from '@studio/contract';
import { Button, Input, Toast } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { call, type StoreInfo } from './api.ts';

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
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const mobileOk = /^1\d{10}$/.test(mobile.trim());
  const sendCode = async () => {
    if (!mobileOk) return setErrors({ mobile: MOBILE_MSG });
    setErrors({});
    try {
      await call(memberSendCode, { storeId: store.storeId, mobile: mobile.trim() });
      setWait(60);
      Toast.show({ content: '验证码已发送' });
    } catch (e) {
      Toast.show({ content: (e as Error).message, duration: 3000 });
    }
  };
  const submit = async () => {
    const next: typeof errors = {};
    if (!mobileOk) next.mobile = MOBILE_MSG;
    if (!/^\d{6}$/.test(code.trim())) next.code = CODE_MSG;
    setErrors(next);
    if (next.mobile || next.code) return;
    setBusy(true);
    try {
      onDone(await call(memberLogin, { storeId: store.storeId, mobile: mobile.trim(), code: code.trim() }));
    } catch (e) {
      setErrors({ code: (e as Error).message });
    } finally {
      setBusy(false);
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
        <Button className="touch" fill="none" color="primary" disabled={wait > 0} onClick={sendCode}>
          {wait > 0 ? `${wait}秒后重发` : '获取验证码'}
        </Button>
      </div>
      <div className="err">{errors.code}</div>
      <div className="actions">
        <Button block color="primary" size="large" loading={busy} onClick={submit}>
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

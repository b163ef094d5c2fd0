import {
  CONTRACT_SIGN_METHODS,
  ContractMsg,
  memberCardContract,
  memberDownloadContract,
  memberSendContractCode,
  memberSignContract,
  type CardContract,
} from '@studio/contract';
import { Button, Checkbox, Dialog, DotLoading, Input, Tag, Toast } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { call } from './api.ts';
import { SubHead } from './sub-head.tsx';

/** The contract's text, to read before signing (scrolls inside the page). */
export function ContractText({ title, text }: { title: string; text: string }) {
  return (
    <section className="contract" aria-label={title} data-testid="contract-text" tabIndex={0}>
      <h3>{title}</h3>
      <pre>{text}</pre>
    </section>
  );
}

/** What the member gives to sign: the tick, then the code texted to their mobile. */
export interface SignInput {
  agree: boolean;
  code: string;
}
export const signReady = (s: SignInput) => s.agree && /^\d{6}$/.test(s.code);

/**
 * 我已阅读并同意 and 获取验证码 + the code's box: `target` says what the code is for (a product about
 * to be bought, or a card's 待签约 contract).
 */
export function SignFields({
  target,
  value,
  onChange,
}: {
  target: { productId: number } | { mcId: number };
  value: SignInput;
  onChange: (v: SignInput) => void;
}) {
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const send = async () => {
    setSending(true);
    try {
      await call(memberSendContractCode, target);
      setSent(true);
      Toast.show({ content: '验证码已发送到你的手机' });
    } catch (e) {
      await Dialog.alert({ content: (e as Error).message, confirmText: '知道了' });
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="sign-fields">
      <Checkbox checked={value.agree} onChange={(agree) => onChange({ ...value, agree })} data-testid="contract-agree">
        我已阅读并同意以上合同
      </Checkbox>
      <div className="code-row">
        <Input
          aria-label="短信验证码"
          placeholder="短信验证码"
          inputMode="numeric"
          maxLength={6}
          value={value.code}
          onChange={(code) => onChange({ ...value, code: code.replace(/\D/g, '') })}
          data-testid="contract-code"
        />
        <Button
          size="small"
          color="primary"
          fill="outline"
          loading={sending}
          disabled={!value.agree}
          onClick={() => void send()}
        >
          {sent ? '重新获取' : '获取验证码'}
        </Button>
      </div>
      {!value.agree && <div className="hint">{ContractMsg.agree}</div>}
    </div>
  );
}

/** Saves a signed contract's PDF on the phone. */
export async function downloadContract(mcId: number) {
  try {
    const f = await call(memberDownloadContract, { mcId });
    const bytes = Uint8Array.from(atob(f.pdf), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = f.fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (e) {
    await Dialog.alert({ content: (e as Error).message, confirmText: '知道了' });
  }
}

/**
 * A card's contract (from 我的会员卡, or the desk's QR with its token): 待签约 → read, tick, code,
 * 签署; 已签约 → who, how and when, and 下载合同.
 */
export function ContractPage({ mcId, token, onBack }: { mcId?: number; token?: string; onBack: () => void }) {
  const [c, setC] = useState<CardContract | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [input, setInput] = useState<SignInput>({ agree: false, code: '' });
  const [signing, setSigning] = useState(false);
  useEffect(() => {
    call(memberCardContract, token ? { token } : { mcId })
      .then(setC)
      .catch((e: Error) => setError(e.message));
  }, [mcId, token]);
  const sign = async () => {
    if (!c) return;
    if (!signReady(input)) {
      await Dialog.alert({ content: input.agree ? ContractMsg.code : ContractMsg.agree, confirmText: '知道了' });
      return;
    }
    setSigning(true);
    try {
      setC(await call(memberSignContract, { mcId: c.mcId, agree: true, code: input.code }));
      Toast.show({ content: '合同已签署' });
    } catch (e) {
      await Dialog.alert({ title: '没有签署', content: (e as Error).message, confirmText: '知道了' });
    } finally {
      setSigning(false);
    }
  };
  return (
    <>
      <SubHead title="会员卡合同" onBack={onBack} />
      <div className="cards" data-testid="contract-page">
        {error && <div className="empty">{error}</div>}
        {!c && !error && (
          <div className="empty">
            <DotLoading color="primary" />
          </div>
        )}
        {c && (
          <>
            <div>
              {c.status === 'signed' ? (
                <Tag color="success" data-testid="contract-status">
                  已签约
                </Tag>
              ) : (
                <Tag color="warning" data-testid="contract-status">
                  待签约
                </Tag>
              )}
            </div>
            <ContractText title={c.title} text={c.text} />
            {c.status === 'pending' ? (
              <>
                <SignFields target={{ mcId: c.mcId }} value={input} onChange={setInput} />
                <Button block color="primary" size="large" loading={signing} onClick={() => void sign()}>
                  签署合同
                </Button>
              </>
            ) : (
              <>
                <div className="meta" data-testid="contract-signed">
                  {c.signerName} 于 {c.signedAt} 签署（{c.signMethod ? CONTRACT_SIGN_METHODS[c.signMethod] : ''}）
                </div>
                <Button block color="primary" fill="outline" onClick={() => void downloadContract(c.mcId)}>
                  下载合同 PDF
                </Button>
              </>
            )}
          </>
        )}
      </div>
    </>
  );
}

import { login, setupStatus } from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from '../../shared/router.tsx';
import { call, takeLoginNotice } from '../../api/client.ts';
import { landingPath, useProfile } from '../../shared/profile.ts';
import { keys } from '../../shared/query-keys.ts';
import './login.css';

/** The screen asked for before login (a link followed, a session that ended), when same-site; else null. */
function safeRedirect(v: string | null): string | null {
  return v && v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/login') ? v : null;
}

/**
 * Staff login: account (username or mobile) and password. Part of the entry bundle and built from
 * plain form elements (no lazy chunk, no form library), so the form paints with the first render.
 * After login: the screen asked for (`redirect`), else the desk and teachers land on 今日 and a
 * manager where they last were (`landingPath`).
 */
export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { data: profile } = useProfile();
  const [loading, setLoading] = useState(false);
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string; password?: string }>({});
  // A refused login is said in the form (not a toast that would outlive the next, successful one),
  // and so is why the browser was logged out (该账号已停用，请联系店长).
  const [failure, setFailure] = useState<string | null>(takeLoginNotice);
  // The screen asked for, else the staff member's own landing (今日 for the desk and teachers).
  const redirect = safeRedirect(params.get('redirect'));
  // First run: an installation without a store sends to the setup screen.
  const setup = useQuery({
    queryKey: keys.setupStatus,
    queryFn: () => call(setupStatus, {}, { silent: true }),
    enabled: !profile,
  });

  if (profile) return <Navigate to={redirect ?? landingPath(profile)} replace />;
  if (setup.data?.needsSetup) return <Navigate to="/setup" replace />;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const next = {
      account: account.trim() ? undefined : '请输入账号',
      password: password ? undefined : '请输入密码',
    };
    setErrors(next);
    setFailure(null);
    if (next.account || next.password) return;
    setLoading(true);
    try {
      const p = await call(login, { account: account.trim(), password }, { silent: true });
      qc.setQueryData(keys.profile, p);
      takeLoginNotice(); // said already; not again at the next logout
      navigate(redirect ?? landingPath(p), { replace: true });
    } catch (err) {
      setFailure((err as Error).message || '登录失败，请重试');
    } finally {
      setLoading(false);
    }
  };

  return (
    <main className="login-screen">
      <form className="login-card" onSubmit={(e) => void onSubmit(e)} noValidate autoComplete="on">
        <h1 className="login-title">团课管理后台</h1>
        <div className={`login-field${errors.account ? ' has-error' : ''}`}>
          <input
            name="account"
            placeholder="账号 / 手机号"
            aria-label="账号 / 手机号"
            autoComplete="username"
            value={account}
            onChange={(e) => setAccount(e.target.value)}
            aria-invalid={!!errors.account}
          />
          {errors.account && <div className="login-error">{errors.account}</div>}
        </div>
        <div className={`login-field${errors.password ? ' has-error' : ''}`}>
          <input
            name="password"
            type="password"
            placeholder="密码"
            aria-label="密码"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={!!errors.password}
          />
          {errors.password && <div className="login-error">{errors.password}</div>}
        </div>
        {failure && (
          <div className="login-failure" role="alert">
            {failure}
          </div>
        )}
        <button type="submit" className="login-submit" disabled={loading}>
          {loading ? '登录中…' : '登录'}
        </button>
      </form>
    </main>
  );
}

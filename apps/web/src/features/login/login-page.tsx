import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { login, setupStatus } from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { call } from '../../api/client.ts';
import { useProfile } from '../../shared/profile.ts';
import { keys } from '../../shared/query-keys.ts';

interface LoginForm {
  account: string;
  password: string;
}

/** Only same-site paths are followed after login. */
function safeRedirect(v: string | null): string {
  return v && v.startsWith('/') && !v.startsWith('//') && !v.startsWith('/login') ? v : '/course/calendar';
}

/** Staff login: account (username or mobile) and password. */
export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { data: profile } = useProfile();
  const [loading, setLoading] = useState(false);
  const target = safeRedirect(params.get('redirect'));
  // First run: an installation without a store sends to the setup screen.
  const setup = useQuery({
    queryKey: keys.setupStatus,
    queryFn: () => call(setupStatus, {}, { silent: true }),
    enabled: !profile,
  });

  if (profile) return <Navigate to={target} replace />;
  if (setup.data?.needsSetup) return <Navigate to="/setup" replace />;

  const onFinish = async (v: LoginForm) => {
    setLoading(true);
    try {
      const p = await call(login, { account: v.account.trim(), password: v.password });
      qc.setQueryData(keys.profile, p);
      navigate(target, { replace: true });
    } catch {
      // the helper has shown the server's message
    } finally {
      setLoading(false);
    }
  };

  return (
    <div
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #e6f4ff 0%, #f0f5ff 100%)',
      }}
    >
      <Card style={{ width: 380 }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginBottom: 24 }}>
          团课管理后台
        </Typography.Title>
        <Form<LoginForm> size="large" onFinish={onFinish} autoComplete="on">
          <Form.Item name="account" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
            <Input prefix={<UserOutlined />} placeholder="账号 / 手机号" autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={loading}>
            登录
          </Button>
        </Form>
      </Card>
    </div>
  );
}

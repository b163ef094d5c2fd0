import { setupInit, setupStatus, StoreAdminMsg } from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Divider, Form, Input, Select, Spin, Typography } from 'antd';
import { useState } from 'react';
import { Navigate, useNavigate } from '../../shared/router.tsx';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { DEFAULT_TIME_ZONE, timeZoneOptions } from '../../shared/timezones.ts';

interface SetupForm {
  storeName: string;
  timezone: string;
  username: string;
  name: string;
  mobile?: string;
  password: string;
  password2: string;
}

/** First run (/setup): creates the store and its admin, then lands logged in on the calendar. */
export default function SetupPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [loading, setLoading] = useState(false);
  const status = useQuery({ queryKey: keys.setupStatus, queryFn: () => call(setupStatus, {}) });

  if (status.isPending) {
    return (
      <div style={{ padding: 80, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  }
  if (status.data && !status.data.needsSetup) return <Navigate to="/login" replace />;

  const onFinish = async (v: SetupForm) => {
    setLoading(true);
    try {
      const profile = await call(setupInit, {
        storeName: v.storeName.trim(),
        timezone: v.timezone,
        admin: {
          username: v.username.trim(),
          name: v.name.trim(),
          mobile: v.mobile?.trim() || null,
          password: v.password,
        },
      });
      qc.setQueryData(keys.setupStatus, { needsSetup: false });
      qc.setQueryData(keys.profile, profile);
      void message.success('门店创建成功');
      navigate('/course/calendar', { replace: true });
    } catch {
      // the helper has shown the server's message
    } finally {
      setLoading(false);
    }
  };

  return (
    <main
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        background: 'linear-gradient(135deg, #e6f4ff 0%, #f0f5ff 100%)',
        padding: 16,
      }}
    >
      <Card style={{ width: 520 }}>
        {/* the page's first-level heading, at the size of a level-3 title */}
        <Typography.Title level={1} style={{ textAlign: 'center', marginBottom: 4, fontSize: 24 }}>
          欢迎使用团课管理后台
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center' }}>
          首次使用：创建门店和管理员账号
        </Typography.Paragraph>
        <Form<SetupForm>
          layout="horizontal"
          labelCol={{ span: 6 }}
          onFinish={onFinish}
          initialValues={{ timezone: DEFAULT_TIME_ZONE }}
          autoComplete="off"
        >
          <Form.Item
            label="门店名称"
            name="storeName"
            rules={[{ required: true, whitespace: true, message: StoreAdminMsg.storeName }, { max: 50 }]}
          >
            <Input placeholder="例如：悦动健身工作室" />
          </Form.Item>
          <Form.Item label="时区" name="timezone" rules={[{ required: true, message: StoreAdminMsg.timezone }]}>
            <Select showSearch options={timeZoneOptions()} />
          </Form.Item>
          <Divider plain style={{ margin: '8px 0 16px' }}>
            管理员
          </Divider>
          <Form.Item
            label="账号"
            name="username"
            rules={[
              { required: true, message: '请输入账号' },
              { pattern: /^[A-Za-z0-9_.@-]{2,32}$/, message: StoreAdminMsg.username },
            ]}
          >
            <Input placeholder="登录用的账号" autoComplete="username" />
          </Form.Item>
          <Form.Item
            label="姓名"
            name="name"
            rules={[{ required: true, whitespace: true, message: StoreAdminMsg.adminName }, { max: 50 }]}
          >
            <Input />
          </Form.Item>
          <Form.Item label="手机号" name="mobile" rules={[{ pattern: /^1\d{10}$/, message: '请输入正确的11位手机号' }]}>
            <Input placeholder="选填，可用于登录" />
          </Form.Item>
          <Form.Item
            label="密码"
            name="password"
            rules={[
              { required: true, message: '请输入密码' },
              { min: 8, message: StoreAdminMsg.passwordShort },
              { max: 128, message: StoreAdminMsg.passwordLong },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label="确认密码"
            name="password2"
            dependencies={['password']}
            rules={[
              { required: true, message: '请再次输入密码' },
              ({ getFieldValue }) => ({
                validator: (_, v) =>
                  !v || v === getFieldValue('password')
                    ? Promise.resolve()
                    : Promise.reject(new Error('两次输入的密码不一致')),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={loading}>
            创建门店并登录
          </Button>
        </Form>
      </Card>
    </main>
  );
}

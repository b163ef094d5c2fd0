import { App, Button, Space, Typography } from 'antd';
import { useEndMemberSessions, useMemberLoginCode } from './hooks.ts';

/**
 * The members' page from the desk: a one-time login code to read out to the member (for a studio
 * without an SMS provider, or a member whose SMS does not arrive), and ending their phone logins.
 */
export function MemberPhoneAccess({ memberId, name }: { memberId: number; name: string }) {
  const { modal, message } = App.useApp();
  const code = useMemberLoginCode();
  const end = useEndMemberSessions();
  const giveCode = async () => {
    const r = await code.run(memberId);
    if (!r) return;
    modal.info({
      title: `${name}的登录验证码`,
      okText: '知道了',
      content: (
        <>
          <Typography.Title level={2} copyable data-testid="member-login-code" style={{ letterSpacing: 6 }}>
            {r.data.code}
          </Typography.Title>
          <p>请会员在手机上打开本店约课页面，输入在本店登记的手机号和这个验证码。</p>
          <p>验证码 {r.data.expireTime.slice(11, 16)} 前有效，只能使用一次。</p>
        </>
      ),
    });
  };
  const endSessions = () =>
    modal.confirm({
      title: '退出该会员的登录',
      content: `${name}在所有手机上的约课页面都将退出，需要重新用验证码登录。`,
      okText: '退出登录',
      cancelText: '取消',
      onOk: async () => {
        const r = await end.run(memberId);
        if (r) void message.success(r.data.ended ? `已退出 ${r.data.ended} 处登录` : '该会员没有登录中的手机');
      },
    });
  return (
    <Space wrap>
      <Button onClick={giveCode} loading={code.loading} data-testid="give-login-code">
        给登录验证码
      </Button>
      <Button onClick={endSessions} loading={end.loading}>
        退出该会员的登录
      </Button>
    </Space>
  );
}

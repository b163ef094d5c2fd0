import { KeyOutlined, LogoutOutlined, QrcodeOutlined, ShopOutlined } from '@ant-design/icons';
import { logout, ROLE_LABEL } from '@studio/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Layout, Spin } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from '../shared/router.tsx';
import { call } from '../api/client.ts';
import { TopUpProvider } from '../features/cards/top-up-provider.tsx';
import { actingPost, actingStore, rememberPath, useProfile } from '../shared/profile.ts';
import { keys } from '../shared/query-keys.ts';
import { menuEntriesFor, menuKeyFor, screenTitle } from './routes.tsx';
import { ScreenErrorBoundary } from './screen-error-boundary.tsx';
import './layout.css';

const ChangePasswordModal = lazy(() => import('../features/staff/change-password-modal.tsx'));
const SellerLinkModal = lazy(() => import('../features/teacher-pay/seller-link-modal.tsx'));

/** The staff member and their role, each once: 张三 · 前台, or only 店长 for an account named after its role. */
const staffLabel = (name: string, role: string) => (name === role ? name : `${name} · ${role}`);

export function PageLoading() {
  return (
    <div style={{ padding: 80, textAlign: 'center' }}>
      <Spin />
    </div>
  );
}

/**
 * The authenticated frame: side menu (the screens of the staff member's role), header with the store
 * name, the staff member and their role, 我的推广链接 (each staff member's own), 修改密码 and 退出登录,
 * the routed screen.
 */
export function AppLayout() {
  const { data: profile, isPending } = useProfile();
  const location = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [showingLink, setShowingLink] = useState(false);
  // Where this staff member is: a manager's next login lands here.
  const here = location.pathname + location.search;
  const staffId = profile?.id;
  useEffect(() => {
    if (staffId) rememberPath(staffId, here);
  }, [staffId, here]);

  if (isPending) return <PageLoading />;
  if (!profile) {
    const redirect = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?redirect=${redirect}`} replace />;
  }
  const store = actingStore(profile);
  const role = actingPost(profile)?.role ?? 'teacher';

  const onLogout = async () => {
    setLeaving(true);
    try {
      await call(logout, {});
      qc.clear();
      qc.setQueryData(keys.profile, null);
      navigate('/login', { replace: true });
    } finally {
      setLeaving(false);
    }
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Layout.Sider width={180} theme="dark" breakpoint="lg" collapsedWidth={0}>
        <div style={{ color: '#fff', fontWeight: 600, fontSize: 16, padding: '18px 20px' }}>团课管理后台</div>
        {/* A plain list rather than antd Menu: the menu code is a large share of the first load. */}
        <nav className="side-menu" role="menu">
          {menuEntriesFor(role).map((m) => (
            <Link
              key={m.key}
              to={m.key}
              role="menuitem"
              className={m.key === menuKeyFor(location.pathname) ? 'side-menu-item active' : 'side-menu-item'}
            >
              {m.label}
            </Link>
          ))}
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          style={{
            background: '#fff',
            padding: '0 24px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            borderBottom: '1px solid #f0f0f0',
          }}
        >
          <strong data-testid="store-name">
            <ShopOutlined /> {store?.name ?? ''}
          </strong>
          <span>
            <span style={{ marginRight: 16, color: 'rgba(0,0,0,0.65)' }} data-testid="staff-name">
              {staffLabel(profile.name, ROLE_LABEL[role])}
            </span>
            <Button type="text" icon={<QrcodeOutlined />} onClick={() => setShowingLink(true)}>
              我的推广链接
            </Button>
            <Button
              type="text"
              icon={<KeyOutlined />}
              onClick={() => setChangingPassword(true)}
              style={{ marginRight: 8 }}
            >
              修改密码
            </Button>
            <Button icon={<LogoutOutlined />} loading={leaving} onClick={onLogout}>
              退出登录
            </Button>
          </span>
          {changingPassword && (
            <Suspense fallback={null}>
              <ChangePasswordModal onClose={() => setChangingPassword(false)} />
            </Suspense>
          )}
          {showingLink && (
            <Suspense fallback={null}>
              <SellerLinkModal onClose={() => setShowingLink(false)} />
            </Suspense>
          )}
        </Layout.Header>
        {/* antd's Content is the page's <main>; its first-level heading names the screen for screen readers. */}
        <Layout.Content style={{ margin: 16 }}>
          <h1 className="sr-only">{screenTitle(location.pathname)}</h1>
          <Suspense fallback={<PageLoading />}>
            <ScreenErrorBoundary key={location.pathname}>
              {/* A card's 充值 wherever a screen shows one (a card short of balance in a booking form). */}
              <TopUpProvider>
                <Outlet />
              </TopUpProvider>
            </ScreenErrorBoundary>
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

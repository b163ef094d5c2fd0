import { ROLE_LABEL, type StaffRole } from '@studio/contract';
import type { ReactNode } from 'react';
import { Notice } from '../shared/notice.tsx';
import { useRole } from '../shared/profile.ts';
import { Link } from '../shared/router.tsx';

/**
 * The routed screen when the staff member's role may open it; otherwise a refusal in its place (a
 * bookmark or a link to a screen of another role), with the way back to the screens every role has.
 */
export function RoleGate({ roles, children }: { roles: readonly StaffRole[]; children: ReactNode }) {
  const role = useRole();
  if (roles.includes(role)) return children;
  return (
    <div data-testid="role-refusal">
      <Notice
        kind="warning"
        title="您的账号没有权限打开这个页面，请联系店长"
        detail={`当前账号的角色是「${ROLE_LABEL[role]}」。`}
        extra={
          <span style={{ fontSize: 14 }}>
            <Link to="/course/calendar">返回课程表</Link>
            <span aria-hidden="true" style={{ margin: '0 12px', color: 'rgba(0,0,0,0.58)' }}>
              |
            </span>
            <Link to="/today">今日</Link>
          </span>
        }
      />
    </div>
  );
}

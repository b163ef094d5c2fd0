import { revealMemberMobile } from '@studio/contract';
import { useState } from 'react';
import { call } from '../api/client.ts';
import { useCan } from './profile.ts';
import { useWrite } from './use-write.ts';

/**
 * A member's mobile as the server answered it: whole for a manager, 138****5678 for the desk and
 * teachers in lists. The desk may 查看 it whole (each view is written to 操作日志 by the server).
 */
export function MobileText({ memberId, mobile }: { memberId: number; mobile: string }) {
  const canReveal = useCan(revealMemberMobile);
  const [whole, setWhole] = useState<string | null>(null);
  const reveal = useWrite(() => call(revealMemberMobile, { memberId }));
  if (whole) return <span data-testid="mobile-whole">{whole}</span>;
  if (!mobile.includes('*') || !canReveal) return <>{mobile}</>;
  return (
    <span>
      {mobile}{' '}
      <a
        role="button"
        aria-label={`查看完整手机号 ${mobile}`}
        data-testid="reveal-mobile"
        onClick={async () => {
          const r = await reveal.run();
          if (r) setWhole(r.data.mobile);
        }}
      >
        查看
      </a>
    </span>
  );
}

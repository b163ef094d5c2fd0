import { topupMemberCard, type MemberCardRow } from '@studio/contract';
import { lazy, Suspense, type ReactNode } from 'react';
import { useCan } from '../../shared/profile.ts';
import { TopUpContext } from '../../shared/top-up.ts';

// Loaded when first opened: the shell around every screen stays small.
const TopupModal = lazy(() => import('./topup-modal.tsx'));

function LazyTopUp({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  return (
    <Suspense fallback={null}>
      <TopupModal card={card} onClose={onClose} />
    </Suspense>
  );
}

/** Lets any screen open a card's top-up (充值, the card table's form) for staff who may top up. */
export function TopUpProvider({ children }: { children: ReactNode }) {
  const can = useCan(topupMemberCard);
  return <TopUpContext.Provider value={can ? LazyTopUp : null}>{children}</TopUpContext.Provider>;
}

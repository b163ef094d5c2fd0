import type { MemberCardRow } from '@studio/contract';
import { createContext, useContext, type ComponentType } from 'react';

/** The top-up (充值) form of a member's card, as a modal closing itself with `onClose`. */
export type TopUpModal = ComponentType<{ card: MemberCardRow; onClose: () => void }>;

/**
 * The top-up of a member's card for wherever a card is shown, e.g. a card greyed out in a booking
 * form for its balance: rendered there, so it opens above that form. Provided by the cards feature
 * around the screens (features/cards TopUpProvider); null where nobody may top up (a teacher).
 */
export const TopUpContext = createContext<TopUpModal | null>(null);

export const useTopUp = () => useContext(TopUpContext);

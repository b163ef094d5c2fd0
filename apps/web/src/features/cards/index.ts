// What other features may use of the cards.
export { default as IssueCardModal } from './issue-card-modal.tsx';
export { MemberCardTable } from './member-card-table.tsx';
export { MemberPayments } from './member-payments.tsx';
export { TopUpProvider } from './top-up-provider.tsx';

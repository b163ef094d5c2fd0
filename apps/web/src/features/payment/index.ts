// What other features may use of online payment: the desk's 扫码收款 dialog (loaded when opened).
export { default as DeskPayModal } from './desk-pay-modal.tsx';

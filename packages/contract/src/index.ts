export * from './envelope.ts';
export * from './amount.ts';
export * from './constants.ts';
export * from './messages.ts';
export * from './common.ts';
export * from './define.ts';
export * from './call-errors.ts';
export * from './calls/index.ts';

// Schedule and booking engine calls.
export const timetableCalls = [] as const;

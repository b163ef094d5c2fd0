// Batch scheduling, weekly template, drop-in students, copy, batch delete and batch export calls.
export const batchCalls = [] as const;

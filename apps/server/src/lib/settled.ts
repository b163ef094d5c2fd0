/**
 * The value of a settled promise, or its error thrown. Reads started together (one round trip on
 * PostgreSQL, db/fixed.ts) are awaited with `Promise.allSettled` and taken with `valueOf` in the
 * order the rules check them, so the first refusal is the one the rules name first, whichever read
 * failed first.
 */
export function valueOf<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

/**
 * The calls' own name for a class, met once where the page meets the wire: the spec names it `tid`
 * (its timetable row); inside the page it is a `sessionId`. Nothing else in the page spells `tid`
 * (eslint.config.js says so).
 */
export const onSession = (sessionId: number) => ({ tid: sessionId });

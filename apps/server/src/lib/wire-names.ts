/**
 * The wire keeps the specification's names (`tid`, `mcId`, `bookId`, `areaId`); inside the server
 * each concept has one name (docs/architecture.md, Words). A route reads its call's input into the
 * inside names with these before it calls a service; answers keep the wire's names.
 */

/** A call's input with the wire's `areaId` / `bookId` read as the venue and the material. */
export type WithVenueAndMaterial<T> = Omit<T, 'areaId' | 'bookId'> & {
  venueId: number | null;
  materialId: number | null;
};

/** Reads `areaId` / `bookId` as `venueId` / `materialId`. */
export function venueAndMaterial<T extends { areaId: number | null; bookId: number | null }>(
  input: T,
): WithVenueAndMaterial<T> {
  const { areaId, bookId, ...rest } = input;
  return { ...rest, venueId: areaId, materialId: bookId };
}

/** A call's input with the wire's `areaId` (a venue filter) read as `venueId`. */
export type WithVenue<T> = Omit<T, 'areaId'> & { venueId: number | null };

/** Reads `areaId` as `venueId`. */
export function withVenue<T extends { areaId: number | null }>(input: T): WithVenue<T> {
  const { areaId, ...rest } = input;
  return { ...rest, venueId: areaId };
}

/** A call's input with the wire's `tid` (a session) read as `sessionId`. */
export type WithSession<T extends { tid?: number | null }> = Omit<T, 'tid'> & { sessionId: T['tid'] };

/** Reads `tid` as `sessionId`: in the calls where it names a session (the batch calls' `tid` is a teacher). */
export function withSession<T extends { tid?: number | null }>(input: T): WithSession<T> {
  const { tid, ...rest } = input;
  return { ...rest, sessionId: tid };
}

/** A call's input with the wire's `mcId` (a member card) read as `memberCardId`. */
export type WithCard<T extends { mcId?: number | null }> = Omit<T, 'mcId'> & { memberCardId: T['mcId'] };

/** Reads `mcId` as `memberCardId`. */
export function withCard<T extends { mcId?: number | null }>(input: T): WithCard<T> {
  const { mcId, ...rest } = input;
  return { ...rest, memberCardId: mcId };
}

/**
 * What a staff post sees of the teachers' work: a teacher account its own teacher's sessions, bookings
 * and pay; the other roles everyone's.
 */
export function ownTeacherFilter(post: { role: string; teacherId: number | null }): number | undefined {
  // A teacher account without a teacher (it cannot be made so) would see nothing.
  return post.role === 'teacher' ? (post.teacherId ?? -1) : undefined;
}

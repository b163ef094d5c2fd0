// Types of the 课时费 screen's parts (lazy modals take theirs from here, not from the page).
import type { CommissionRow, PayRule, TeacherPayStatement, TeacherStatement } from '@studio/contract';

/** Which kind of month a close or reopen is about: teacher pay or sales commission. */
export type CloseKind = 'teacher' | 'commission';

export type { CommissionRow, PayRule, TeacherPayStatement, TeacherStatement };

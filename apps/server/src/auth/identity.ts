import type { StaffRole } from '@studio/contract';

/** Who a staff session belongs to: the staff member and the stores they hold an enabled post in. */
export interface StaffIdentity {
  id: number;
  name: string;
  mobile: string | null;
  posts: {
    storeId: number;
    store: { id: number; name: string; timezone: string };
    role: StaffRole;
    teacherId: number | null;
  }[];
}

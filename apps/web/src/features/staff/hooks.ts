// The staff screen's reads and writes, and a staff member's own password.
import {
  changePassword,
  insertStaff,
  queryStaffList,
  resetStaffPassword,
  updateStaff,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** The store's staff with role, teacher and state. */
export function useStaffList() {
  return useQuery({ queryKey: keys.staff, queryFn: () => call(queryStaffList, {}) });
}

export type NewStaff = ReqOf<typeof insertStaff>;
export type StaffChange = ReqOf<typeof updateStaff>;

export function useInsertStaff() {
  return useWrite((s: NewStaff) => call(insertStaff, s), { success: '员工已添加', changes: 'staff' });
}

export function useUpdateStaff() {
  return useWrite((s: StaffChange) => call(updateStaff, s), { success: '员工已保存', changes: 'staff' });
}

export function useResetStaffPassword() {
  return useWrite((id: number, password: string) => call(resetStaffPassword, { id, password }), {
    success: '密码已重置',
  });
}

/** The logged-in staff member's own password (their other logins end). */
export function useChangePassword() {
  return useWrite((oldPassword: string, newPassword: string) => call(changePassword, { oldPassword, newPassword }), {
    success: '密码已修改',
  });
}

import { StaffMsg } from '@studio/contract';
import type { Rule } from 'antd/es/form';

// The contract's zNewPassword as form rules (the web bundle carries no zod schemas, only the messages).
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

/** Why `p` is not a valid new password (StaffMsg), or null. */
export function passwordProblem(p: string | undefined): string | null {
  if (!p || p.length < PASSWORD_MIN) return StaffMsg.passwordShort;
  if (p.length > PASSWORD_MAX) return StaffMsg.passwordLong;
  if (!/[A-Za-z]/.test(p) || !/\d/.test(p)) return StaffMsg.passwordWeak;
  return null;
}

/** A new password field's rules: 8 to 128 characters with a letter and a digit. */
export const newPasswordRules: Rule[] = [
  {
    validator: (_, v: string | undefined) => {
      const problem = passwordProblem(v);
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
    },
  },
];

/** A 确认新密码 field's rules: the same as the field `of`. */
export const confirmPasswordRules = (of: string): Rule[] => [
  { required: true, message: '请再次输入新密码' },
  ({ getFieldValue }) => ({
    validator: (_, v: string | undefined) =>
      !v || v === getFieldValue(of) ? Promise.resolve() : Promise.reject(new Error('两次输入的新密码不一致')),
  }),
];

export const PASSWORD_HELP = '至少8位，须同时包含字母和数字';

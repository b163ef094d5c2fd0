import { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

/** The Chinese message of a zod issue that its schema does not word itself. */
export function chineseIssueMessage(iss: Issue): string {
  const field = iss.path && iss.path.length ? `「${iss.path.join('.')}」` : '请求内容';
  switch (iss.code) {
    case 'invalid_type':
      return iss.input === undefined ? `缺少${field}` : `${field}类型不正确`;
    case 'too_small':
      return iss.origin === 'string' || iss.origin === 'array'
        ? `${field}不能少于${String(iss.minimum)}${iss.origin === 'string' ? '个字符' : '项'}`
        : `${field}不能小于${String(iss.minimum)}`;
    case 'too_big':
      return iss.origin === 'string' || iss.origin === 'array'
        ? `${field}不能超过${String(iss.maximum)}${iss.origin === 'string' ? '个字符' : '项'}`
        : `${field}不能大于${String(iss.maximum)}`;
    case 'invalid_format':
      return `${field}格式不正确`;
    case 'unrecognized_keys':
      return `不支持的字段：${iss.keys.join('、')}`;
    case 'invalid_value':
      return `${field}取值不正确`;
    case 'not_multiple_of':
      return `${field}取值不正确`;
    default:
      return `${field}不正确`;
  }
}

/**
 * Chinese messages for every zod issue that a schema does not word itself.
 * Schemas that carry the spec's own message (`{ error: '请选择上课老师' }`) win over this.
 */
export function installChineseErrors(): void {
  z.config({ customError: chineseIssueMessage });
}
installChineseErrors();

/** The wordings chineseIssueMessage can give, with `{字段}` and `{n}` for the parts filled in. */
export const GENERIC_ISSUE_MESSAGES: readonly string[] = (() => {
  const path = ['{字段}'];
  const samples = [
    { code: 'invalid_type', path, input: undefined },
    { code: 'invalid_type', path, input: 1 },
    { code: 'invalid_type', path: [], input: 1 },
    ...['string', 'array', 'number'].flatMap((origin) => [
      { code: 'too_small', path, origin, minimum: '{n}' },
      { code: 'too_big', path, origin, maximum: '{n}' },
    ]),
    { code: 'invalid_format', path },
    { code: 'unrecognized_keys', path, keys: ['{字段}'] },
    { code: 'invalid_value', path },
    { code: 'invalid_union', path },
  ];
  return [...new Set(samples.map((s) => chineseIssueMessage(s as unknown as Issue)))];
})();

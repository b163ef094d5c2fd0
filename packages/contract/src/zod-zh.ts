import { z } from 'zod';

/**
 * Chinese messages for every zod issue that a schema does not word itself.
 * Schemas that carry the spec's own message (`{ error: '请选择上课老师' }`) win over this.
 */
export function installChineseErrors(): void {
  z.config({
    customError: (iss) => {
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
    },
  });
}
installChineseErrors();

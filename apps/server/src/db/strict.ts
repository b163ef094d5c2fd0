/**
 * The suites run with AUDIT_STRICT=1 (vitest.config.ts): a business write outside an audited
 * transaction throws (lib/audit.ts), and statements written outside Kysely's usual path are also
 * built through it, so that guard sees them and a fixed statement is checked against its values.
 */
export const auditStrict = process.env.AUDIT_STRICT === '1';

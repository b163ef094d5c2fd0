import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * 电子合同 signing (issue 45, item 2):
 * - `card_contract` gains the signature: `signed_at` (server time, store-local; null: 待签约), how
 *   (`sign_method`: sms 手机验证码 online, qr 扫码签署 at the desk, tablet 平板手写), who (`signer_id`,
 *   the member), from where (`sign_ip`, `sign_ua`), the drawn image (`signature_png`), and the seal:
 *   the rendered PDF (`pdf`), its SHA-256 (`pdf_sha256`) and the SHA-256 over that hash and the
 *   contract's fields in canonical JSON (`seal_sha256`).
 * - `sign_token` (SHA-256 of the desk's QR token, random) and `sign_token_expires` (ms): the link
 *   the member opens to sign a 待签约 contract.
 * - A signed row is unchangeable, in the database: a trigger refuses a DELETE of it and any UPDATE
 *   but the one that seals it (pdf and hashes set while still null; an online signature is written
 *   with the sale and sealed right after it).
 * - `pay_order.contract_sign`: the member's signature before paying (JSON: time, address, browser),
 *   which the order's fulfilment writes into the card's contract.
 */
export function contractSigning(dialect: Dialect) {
  const pg = dialect === 'postgres';
  const blob = pg ? 'bytea' : 'blob';
  // Everything a signature fixes: only pdf, pdf_sha256 and seal_sha256 may still be set (once).
  const fixedCols = [
    'id',
    'store_id',
    'member_card_id',
    'member_id',
    'template_id',
    'terms',
    'created_at',
    'signed_at',
    'sign_method',
    'signer_id',
    'sign_ip',
    'sign_ua',
    'signature_png',
  ];
  const changed = fixedCols.map((c) => `new.${c} is ${pg ? 'distinct from' : 'not'} old.${c}`).join(' or ');
  const refused = `old.pdf_sha256 is not null or (old.signed_at is not null and (${changed}))`;
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const [name, type] of [
        ['signed_at', 'text'],
        ['sign_method', 'text'],
        ['signer_id', 'integer'],
        ['sign_ip', 'text'],
        ['sign_ua', 'text'],
        ['signature_png', blob],
        ['pdf', blob],
        ['pdf_sha256', 'text'],
        ['seal_sha256', 'text'],
        ['sign_token', 'text'],
        ['sign_token_expires', 'text'],
      ] as const) {
        await db.schema.alterTable('card_contract').addColumn(name, type).execute();
      }
      await db.schema.alterTable('pay_order').addColumn('contract_sign', 'text').execute();
      if (pg) {
        await sql
          .raw(
            `create or replace function card_contract_frozen() returns trigger language plpgsql as $$
            begin
              if tg_op = 'DELETE' then
                if old.signed_at is not null then raise exception 'signed contracts cannot be changed'; end if;
                return old;
              end if;
              if ${refused} then raise exception 'signed contracts cannot be changed'; end if;
              return new;
            end $$`,
          )
          .execute(db);
        await sql`create trigger card_contract_signed before update or delete on card_contract
          for each row execute function card_contract_frozen()`.execute(db);
      } else {
        await sql
          .raw(
            `create trigger card_contract_signed_update before update on card_contract
            when ${refused}
            begin select raise(abort, 'signed contracts cannot be changed'); end`,
          )
          .execute(db);
        await sql`create trigger card_contract_signed_delete before delete on card_contract
          when old.signed_at is not null
          begin select raise(abort, 'signed contracts cannot be changed'); end`.execute(db);
      }
    },
  };
}

import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * 电子合同 (issue 45, item 1):
 * - `contract_template`: a store's contract (title and text with `{{field}}`s), one row a version,
 *   never changed; the highest version is in force. None: the default text is version 1, written
 *   with the first sale or the manager's first save.
 * - `card_contract`: the contract of one card's sale (desk or online; an import makes none): the
 *   template version in force at the sale and the sale's terms as filled then (JSON of the fields
 *   that are not the member's person: product, price, balance, validity, rules, date). The member's
 *   name and mobile are read from the buyer (`member_id`, who stays named after a transfer) when shown,
 *   so an erased member's contract names nobody.
 * The store's licence name (经营者名称) is the store setting `contract.licence`.
 */
export function contracts(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('contract_template')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('version', 'integer', (c) => c.notNull().check(sql`version >= 1`))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('staff.id'))
        .addUniqueConstraint('contract_template_version_uq', ['store_id', 'version'])
        .execute();
      await db.schema
        .createTable('card_contract')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_card_id', 'integer', (c) => c.notNull().references('member_card.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('template_id', 'integer', (c) => c.notNull().references('contract_template.id'))
        .addColumn('terms', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('card_contract_card_uq', ['member_card_id'])
        .execute();
      await db.schema.createIndex('card_contract_template').on('card_contract').columns(['template_id']).execute();
    },
  };
}

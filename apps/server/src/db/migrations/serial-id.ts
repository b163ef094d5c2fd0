import type { CreateTableBuilder } from 'kysely';
import type { Dialect } from '../index.ts';

/** A table's `id` primary key, given by the database: `serial` on PostgreSQL, autoincrement on SQLite. */
export const serialId =
  (dialect: Dialect) =>
  <T extends string>(tb: CreateTableBuilder<T>) =>
    dialect === 'postgres'
      ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
      : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

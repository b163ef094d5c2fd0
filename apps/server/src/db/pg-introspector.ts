import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresIntrospector,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

/**
 * What Kysely's migrator asks of PostgreSQL (which schemas and tables exist), read in the schema the
 * connection works in only (its search_path).
 *
 * Kysely's own introspector reads every table of the whole database and calls
 * `has_schema_privilege(name)` and `pg_get_serial_sequence(name)` on each by name. When another
 * schema is dropped while that read runs (the test suites make and drop one schema per file, two
 * files at a time), the catalog row is still in its snapshot but the name no longer resolves, and
 * the migration fails with "schema t_… does not exist". Here nothing outside the own schema is
 * read, and a schema's tables are found by its oid.
 */
export class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  /** Kysely's: it reads the schemas' names only, nothing by name. */
  getSchemas(): Promise<SchemaMetadata[]> {
    return new PostgresIntrospector(this.db).getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      nsp: string;
      tbl: string;
      kind: string;
      col: string;
      typ: string;
      typnsp: string;
      notnull: boolean;
      hasdef: boolean;
      serial: string | null;
      descr: string | null;
    }>`
      select ns.nspname as nsp, c.relname as tbl, c.relkind as kind, a.attname as col,
             typ.typname as typ, tns.nspname as typnsp, a.attnotnull as notnull, a.atthasdef as hasdef,
             pg_get_serial_sequence(format('%I.%I', ns.nspname, c.relname), a.attname) as serial,
             col_description(a.attrelid, a.attnum) as descr
        from pg_catalog.pg_namespace ns
        join pg_catalog.pg_class c on c.relnamespace = ns.oid
        join pg_catalog.pg_attribute a on a.attrelid = c.oid
        join pg_catalog.pg_type typ on typ.oid = a.atttypid
        join pg_catalog.pg_namespace tns on tns.oid = typ.typnamespace
       where ns.nspname = current_schema()
         and c.relkind in ('r', 'v', 'p')
         and a.attnum >= 0 and not a.attisdropped
       order by c.relname, a.attnum`.execute(this.db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    const tables = new Map<string, TableMetadata>();
    for (const r of rows) {
      if (!options.withInternalKyselyTables && internal.has(r.tbl)) continue;
      let table = tables.get(r.tbl);
      if (!table) {
        table = { name: r.tbl, schema: r.nsp, isView: r.kind === 'v', columns: [] };
        tables.set(r.tbl, table);
      }
      table.columns.push({
        name: r.col,
        dataType: r.typ,
        dataTypeSchema: r.typnsp,
        isNullable: !r.notnull,
        hasDefaultValue: r.hasdef,
        isAutoIncrementing: r.serial !== null,
        comment: r.descr ?? undefined,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

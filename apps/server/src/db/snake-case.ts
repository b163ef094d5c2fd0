import {
  CamelCasePlugin,
  type DatabaseIntrospector,
  type Kysely,
  PostgresDialect,
  PostgresQueryCompiler,
  SqliteDialect,
  SqliteQueryCompiler,
  type PluginTransformQueryArgs,
  type QueryCompiler,
  type RootOperationNode,
} from 'kysely';
import { CurrentSchemaIntrospector } from './pg-introspector.ts';

/**
 * Code names tables and columns in camelCase, the database in snake_case. Kysely's CamelCasePlugin
 * does it by copying every query's whole tree before compiling it, a tenth of a booking's CPU
 * (bench/booking.ts); here the compilers write each identifier in snake_case as they print it, which
 * gives the same SQL, and the plugin only renames the columns of the rows that come back.
 */
class RowsToCamelCase extends CamelCasePlugin {
  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  /** A camelCase name as the database spells it (memoized). */
  toSnakeCase(identifier: string): string {
    return this.snakeCase(identifier);
  }
}

/** The database's plugin: result rows' columns in camelCase. */
export const camelCaseRows = new RowsToCamelCase();
/** A camelCase name as the database spells it. */
export const snakeCase = (identifier: string) => camelCaseRows.toSnakeCase(identifier);

class SnakeSqliteCompiler extends SqliteQueryCompiler {
  protected override sanitizeIdentifier(identifier: string): string {
    return super.sanitizeIdentifier(snakeCase(identifier));
  }
}

class SnakePostgresCompiler extends PostgresQueryCompiler {
  protected override sanitizeIdentifier(identifier: string): string {
    return super.sanitizeIdentifier(snakeCase(identifier));
  }
}

/** Kysely's SQLite dialect whose compiler writes identifiers in snake_case. */
export class SnakeSqliteDialect extends SqliteDialect {
  override createQueryCompiler(): QueryCompiler {
    return new SnakeSqliteCompiler();
  }
}

/**
 * Kysely's PostgreSQL dialect whose compiler writes identifiers in snake_case, and whose migrator
 * looks only at the connection's own schema (pg-introspector.ts).
 */
export class SnakePostgresDialect extends PostgresDialect {
  override createQueryCompiler(): QueryCompiler {
    return new SnakePostgresCompiler();
  }
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db);
  }
}

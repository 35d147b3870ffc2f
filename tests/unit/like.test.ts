/**
 * `like` as the server writes it (like.ts): its wildcards and escape character taken literally, and its
 * pattern bound on SQLite as an expression, never as a bare parameter, which would have SQLite prepare
 * the statement again on every run (a searched page 125–131 µs against 89–91). The rows it selects are
 * checked against a real SQLite; the list's own searches against a plain scan in tests/api/search.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, SqliteDialect } from 'kysely';
import { likeBound, likeLiteral } from '../../src/server/db/like.ts';

const sqlite = new SQLite(':memory:');
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
const postgres = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
afterAll(() => db.destroy());

const TEXTS = ['glass', 'Glass jar', 'GLASSES', 'gla ss', '100% glass', '100 glass', 'snake_case', 'snakeXcase', 'back\\slash', 'backslash', 'a\\%b'];

async function matching(pattern: string) {
  const rows = await db
    .selectFrom(sql`(select column1 as t from (values ${sql.join(TEXTS.map((t) => sql`(${t})`))}))`.as('texts'))
    .select('t')
    .where(likeBound(db, sql.ref('t'), pattern))
    .execute();
  return rows.map((r) => r.t as string);
}

describe('likeBound', () => {
  it('never hands SQLite the pattern as a bare parameter, and PostgreSQL always does', () => {
    for (const pattern of ['%glass%', `%${likeLiteral('100%')}%`, `${likeLiteral('R.D.M_BGD')}-%`]) {
      const onSqlite = db.selectFrom('t').selectAll().where(likeBound(db, sql.ref('t'), pattern)).compile();
      expect(onSqlite.sql).not.toMatch(/like \?/);
      expect(onSqlite.sql).toMatch(/like \(\? \|\| ''\)/);
      expect(onSqlite.parameters).toEqual([pattern]);
      const onPostgres = postgres.selectFrom('t').selectAll().where(likeBound(postgres, sql.ref('t'), pattern)).compile();
      expect(onPostgres.sql).toMatch(/like \$1/);
      expect(onPostgres.parameters).toEqual([pattern]);
    }
  });

  it('writes the escape clause only for a pattern that holds the escape character', () => {
    const text = (pattern: string) => db.selectFrom('t').selectAll().where(likeBound(db, sql.ref('t'), pattern)).compile().sql;
    expect(text('%glass%')).not.toContain('escape');
    expect(text(`%${likeLiteral('100%')}%`)).toContain(`escape '\\'`);
  });

  it('selects, case aside, the texts holding the needle, its %, _ and \\ taken literally', async () => {
    const holding = (needle: string) => matching(`%${likeLiteral(needle)}%`);
    expect(await holding('glass')).toEqual(['glass', 'Glass jar', 'GLASSES', '100% glass', '100 glass']);
    expect(await holding('100%')).toEqual(['100% glass']);
    expect(await holding('snake_')).toEqual(['snake_case']);
    expect(await holding('back\\')).toEqual(['back\\slash']);
    expect(await holding('\\%')).toEqual(['a\\%b']);
    expect(await matching(`${likeLiteral('snake_')}%`)).toEqual(['snake_case']);
  });
});

/**
 * The statement cache Kysely's SQLite driver runs on makes rows from raw arrays: they must be exactly
 * the objects better-sqlite3 itself would have made, whatever the columns are called.
 */
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/server/db/sqlite/sqlite-statements.ts';

function database() {
  const sqlite = new SQLite(':memory:');
  sqlite.exec(`create table t ("id" text primary key, "name" text, "n" integer, "x y" real, "quo""te" text, "ünï" text, "b" blob)`);
  const insert = sqlite.prepare('insert into t values (?, ?, ?, ?, ?, ?, ?)');
  insert.run('a', 'first', 1, 1.5, 'q', 'u', Buffer.from([1, 2]));
  insert.run('b', null, 2 ** 40, -0.25, null, 'ü', null);
  return sqlite;
}

const queries = [
  'select * from t order by id',
  'select id, name as "n", n from t order by id', // two columns named n: the later wins, in the first one's place
  'select 1 as "constructor", 2 as "toString", 3 as "hasOwnProperty" from t',
  'select count(*) as total from t',
  'select * from t where id = ?',
  'insert into t (id, name) values (?, ?) returning *',
];

describe('SQLite statements as the driver runs them', () => {
  it('make every row exactly as better-sqlite3 does, keys in the same order', () => {
    for (const text of queries) {
      const plain = database();
      const cached = withStatementCache(database());
      const parameters = text.includes('insert') ? ['c', 'new'] : text.includes('?') ? ['b'] : [];
      const expected = plain.prepare(text).all(...parameters);
      const got = cached.prepare(text).all(parameters);
      expect(got, text).toEqual(expected);
      expect(got.map((row) => Object.keys(row as object)), text).toEqual(expected.map((row) => Object.keys(row as object)));
    }
  });

  it('keeps one statement per text, reads it again with new parameters, and iterates rows as objects', () => {
    const cached = withStatementCache(database());
    const statement = cached.prepare('select id, name from t where id = ?');
    expect(cached.prepare('select id, name from t where id = ?')).toBe(statement);
    expect(statement.all(['a'])).toEqual([{ id: 'a', name: 'first' }]);
    expect(statement.all(['b'])).toEqual([{ id: 'b', name: null }]);
    expect([...cached.prepare('select id from t order by id').iterate([])]).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('writes through statements that read nothing', () => {
    const cached = withStatementCache(database());
    const write = cached.prepare('update t set name = ? where id = ?');
    expect(write.reader).toBe(false);
    expect(write.run(['renamed', 'a']).changes).toBe(1);
    expect(cached.prepare('select name from t where id = ?').all(['a'])).toEqual([{ name: 'renamed' }]);
  });

  it('answers a column named __proto__ as better-sqlite3 does (no literal can say it)', () => {
    const text = 'select 1 as "__proto__", 2 as "a" from t limit 1';
    const [expected] = database().prepare(text).all() as Record<string, unknown>[];
    const [row] = withStatementCache(database()).prepare(text).all([]) as Record<string, unknown>[];
    expect(Object.getPrototypeOf(row)).toBe(Object.getPrototypeOf(expected));
    expect(Object.keys(row)).toEqual(Object.keys(expected));
    expect(row.a).toBe(2);
  });
});

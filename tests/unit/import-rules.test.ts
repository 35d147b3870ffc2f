/**
 * The import rules of src/ (scripts/check-imports.ts): the repository keeps them, and the check finds
 * what breaks them (in a small tree written for the purpose: circles of type-only imports, re-exports
 * and dynamic imports, and each layer reaching where it may not).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImports, formatViolation, LAYERS } from '../../scripts/check-imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the import rules', () => {
  it('hold in src/: no import circle, no layer importing what is above it', () => {
    expect(checkImports(ROOT).map(formatViolation)).toEqual([]);
  });
});

describe('the import check', () => {
  const tree = mkdtempSync(join(tmpdir(), 'import-rules-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }
  };
  write({
    // A circle of three, closed by a type-only import, an `export … from` and a dynamic import.
    'src/server/a.ts': `import type { B } from './b.ts';\nexport type A = B;\n`,
    'src/server/b.ts': `export { c as B } from './c.ts';\n`,
    'src/server/c.ts': `export const c = () => import('./a.ts');\n`,
    // Layers reaching up.
    'src/domain/money.ts': `import { x } from '../server/db/repository.ts';\n`,
    'src/server/db/repository.ts': `import { d } from '../front/docs.ts';\nexport const x = 1;\n`,
    'src/server/front/docs.ts': `export const d = 1;\n`,
    'src/server/db/sqlite/pool.ts': `import { x } from '../repository.ts';\nimport type { Db } from '../types.ts';\nimport { Slots } from '../../slots.ts';\n`,
    'src/server/db/types.ts': `export type Db = unknown;\n`,
    'src/server/slots.ts': `export class Slots {}\n`,
    'src/server/records/writes.ts': `import { p } from '../db/sqlite/pool.ts';\nimport { x } from '../db/repository.ts';\nexport const y = 2;\n`,
    'src/client/list.tsx': `import { x } from '../server/db/repository.ts';\nimport { m } from '../manifest/index.ts';\n`,
    'src/manifest/index.ts': `import { money } from '../domain/money.ts';\nexport const m = 3;\n`,
    'src/server/routes/reads.ts': `import { l } from '../../client/list.tsx';\nimport { x } from '../db/repository';\n`,
  });

  it('reports every import in a circle, type-only and dynamic ones too, and every layer reaching up', () => {
    const found = checkImports(tree, { allowed: [] }).map(formatViolation);
    const circle = (from: string, to: string, path: string) => `${from} -> ${to} (import circle: ${path}; 3 files tied in all)`;
    expect(found.filter((v) => v.includes('import circle')).sort()).toEqual(
      [
        circle('src/server/a.ts', 'src/server/b.ts', 'src/server/a.ts -> src/server/b.ts -> src/server/c.ts -> src/server/a.ts'),
        circle('src/server/b.ts', 'src/server/c.ts', 'src/server/b.ts -> src/server/c.ts -> src/server/a.ts -> src/server/b.ts'),
        circle('src/server/c.ts', 'src/server/a.ts', 'src/server/c.ts -> src/server/a.ts -> src/server/b.ts -> src/server/c.ts'),
      ].sort(),
    );
    const rule = (files: string) => LAYERS.find((l) => l.files === files)!.name;
    expect(found.filter((v) => !v.includes('import circle')).sort()).toEqual(
      [
        `src/domain/money.ts -> src/server/db/repository.ts (${rule('src/domain/')})`,
        `src/server/db/repository.ts -> src/server/front/docs.ts (${rule('src/server/db/')})`,
        `src/server/db/sqlite/pool.ts -> src/server/db/repository.ts (${rule('src/server/db/sqlite/')})`,
        `src/server/records/writes.ts -> src/server/db/sqlite/pool.ts (${rule('src/server/records/')})`,
        `src/client/list.tsx -> src/server/db/repository.ts (${rule('src/client/')})`,
        `src/server/routes/reads.ts -> src/client/list.tsx (${rule('src/server/')})`,
      ].sort(),
    );
  });

  it('leaves out an allowed import and the circle an allowed import closes, and reports an allowance no import needs', () => {
    const allowed = [
      { from: 'src/domain/', to: 'src/server/db/repository.ts', why: 'a layer reaching up' },
      { from: 'src/server/c.ts', to: 'src/server/a.ts', why: 'the import that closes the circle' },
      { from: 'src/domain/money.ts', to: 'src/server/errors.ts', why: 'no longer made' },
    ];
    const found = checkImports(tree, { allowed }).map(formatViolation);
    expect(found.filter((v) => v.includes('import circle'))).toEqual([]);
    expect(found.filter((v) => v.startsWith('src/domain/'))).toEqual([
      'src/domain/money.ts -> src/server/errors.ts (allowed in scripts/check-imports.ts but no longer a violation: remove it from ALLOWED)',
    ]);
    expect(found).toHaveLength(5 + 1);
  });
});

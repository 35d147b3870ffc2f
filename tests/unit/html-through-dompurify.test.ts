/**
 * Markup from the server reaches the page only through DOMPurify (`sanitizeHtml` in
 * src/client/generate/html.tsx): no other client file writes HTML into the document, and every `html`
 * field of every manifest is shown by that one component. Fails when a new screen renders HTML itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { registry } from '../../resources/index.ts';

const root = join(import.meta.dirname, '../..');
const CLIENT = join(root, 'src/client');
const SANITISER = 'src/client/generate/html.tsx';
/** Ways to turn a string into DOM nodes. */
const SINKS = /dangerouslySetInnerHTML|\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|createContextualFragment|document\.write/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.(ts|tsx)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe('HTML only through DOMPurify', () => {
  it('no client file but the sanitiser writes markup into the page', () => {
    const writers = sources(CLIENT)
      .filter((file) => SINKS.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(writers).toEqual([SANITISER]);
  });

  it('the sanitiser writes only what DOMPurify returned', () => {
    const text = readFileSync(join(root, SANITISER), 'utf8');
    expect(text).toMatch(/DOMPurify\.sanitize\(/);
    expect(text).toMatch(/const clean = useMemo\(\(\) => sanitizeHtml\(value\)/);
    expect(text).toMatch(/dangerouslySetInnerHTML=\{\{ __html: clean \}\}/);
  });

  it('pages declare their content as html, so it is shown by the sanitiser', () => {
    const html = registry.resources.flatMap((r) => r.fields.filter((f) => f.kind === 'html').map((f) => `${r.name}.${f.name}`));
    expect(html).toContain('pages.content');
  });
});

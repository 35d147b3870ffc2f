/**
 * Every browser test file's setup (vite.config.ts): when a test fails, the failure output says what each
 * open page of the file's browsers showed (diagnose.ts), so a failure seen only in CI can be read, not
 * guessed (CI keeps no screenshots).
 */
import { beforeEach } from 'vitest';
import { launched } from './browser.ts';
import { pageState } from './diagnose.ts';

beforeEach(({ onTestFailed }) =>
  onTestFailed(async () => {
    const pages = [...launched].flatMap((browser) => browser.contexts().flatMap((context) => context.pages())).filter((page) => !page.isClosed());
    for (const [i, page] of pages.entries()) console.error(`${pages.length > 1 ? `(page ${i + 1} of ${pages.length}) ` : ''}${await pageState(page)}`);
  }),
);

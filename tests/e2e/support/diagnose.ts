/**
 * What a page showed when a browser test failed, for its failure output (failure-state.ts asks it of
 * every open page): CI keeps no screenshots, and a failure seen only on a loaded machine (an element that
 * never came) is otherwise a guess. Its address, its heading (the app bar's title), the menus and dialogs
 * in it, the toasts and alerts shown (one toast replaces another: a test waiting for one may find a later
 * one), what MUI's modal manager hid from assistive technology (a hidden ancestor hides an element from
 * `getByRole`), where the focus is, and the start of the content's text (the side menu left out).
 */
import type { Page } from 'playwright-core';

/** How long a page is given to say its state: a page that hangs must not hold the failure back. */
const READ_WITHIN_MS = 5_000;

export async function pageState(page: Page): Promise<string> {
  if (page.isClosed()) return 'page state: the page was closed';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READ_WITHIN_MS} ms`)), READ_WITHIN_MS)));
  try {
    const state = await Promise.race([late, page.evaluate(() => {
      const describe = (el: Element) =>
        `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('role') ? ` role=${el.getAttribute('role')}` : ''}${el.getAttribute('aria-label') ? ` "${el.getAttribute('aria-label')}"` : ''}>`;
      const withText = (el: Element) => `${describe(el)} ${(el.textContent ?? '').replace(/\s+/g, ' ').slice(0, 160)}`;
      const open = [...document.querySelectorAll('[role=menu], [role=dialog], [role=alertdialog], [role=listbox]')].map(withText);
      // Empty live regions (kept for announcements) are left out.
      const alerts = [...document.querySelectorAll('[role=alert], [role=status]')].filter((el) => el.textContent?.trim()).map(withText);
      // Icons are hidden by design: only boxes are told.
      const hidden = [...document.querySelectorAll('[aria-hidden=true]')].filter((el) => el.tagName.toLowerCase() !== 'svg').map(describe).slice(0, 20);
      return {
        url: location.href,
        title: document.querySelector('#react-admin-title')?.textContent ?? document.title,
        open,
        alerts,
        hidden,
        focus: document.activeElement ? describe(document.activeElement) : 'none',
        main: ((document.getElementById('main-content') ?? document.querySelector('main'))?.textContent ?? document.body.textContent ?? '').replace(/\s+/g, ' ').slice(0, 600),
      };
    })]);
    return [
      `page state: ${state.url} (title: ${state.title})`,
      `  open: ${state.open.length ? state.open.join('\n        ') : 'no menu or dialog'}`,
      `  alerts: ${state.alerts.length ? state.alerts.join('\n          ') : 'none'}`,
      `  aria-hidden: ${state.hidden.join(' ') || 'nothing'}`,
      `  focus: ${state.focus}`,
      `  main: ${state.main}`,
    ].join('\n');
  } catch (error) {
    return `page state: unreadable (${(error as Error).message})`;
  } finally {
    clearTimeout(timer);
  }
}

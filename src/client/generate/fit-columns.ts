/**
 * A table that fits its screen: when the list's table is wider than the box it is shown in, the
 * columns that may go (`candidates`, in the order they are kept: the last goes first) are dropped, as
 * many at once as their header cells' widths make up the excess. They stay in the column chooser,
 * unticked. A wider box (a larger window, a collapsed menu) starts again from every column, and so
 * does a change of what may go (the user ticked a column on, or off). Header cells are found by their
 * `data-column` (header.tsx).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Below a pixel is rounding, not a scroll. */
const SLACK = 1;
/**
 * A box wider by more than a scrollbar is a wider screen: a page's scrollbar coming and going as
 * columns go (rows grow shorter) must not start the choice again, back and forth.
 */
const WIDER = 24;

export function useFitColumns(candidates: string[]) {
  const [box, setBox] = useState<HTMLElement | null>(null);
  const [dropped, setDropped] = useState<string[]>([]);
  // The observers outlive renders: they read the latest of both.
  const latest = useRef({ candidates, dropped });
  latest.current = { candidates, dropped };

  const measure = useCallback(() => {
    if (!box) return;
    const over = box.scrollWidth - box.clientWidth;
    if (over <= SLACK) return;
    const { candidates: keys, dropped: gone } = latest.current;
    const cells = new Map([...box.querySelectorAll<HTMLElement>('th[data-column]')].map((th) => [th.dataset.column, th]));
    const more: string[] = [];
    let gained = 0;
    for (const key of [...keys].reverse()) {
      if (gained >= over) break;
      if (gone.includes(key)) continue;
      const cell = cells.get(key);
      if (!cell) continue;
      gained += cell.getBoundingClientRect().width;
      more.push(key);
    }
    if (more.length) setDropped([...gone, ...more]);
  }, [box]);

  const wanted = candidates.join('\n');
  useEffect(() => setDropped((d) => (d.length ? [] : d)), [wanted]);

  // After each render of the list screen (its columns changed) …
  useLayoutEffect(measure);

  useEffect(() => {
    // (A browser without ResizeObserver, as jsdom, measures after each render only.)
    if (!box || typeof ResizeObserver === 'undefined') return;
    let width = box.clientWidth;
    let frame = 0;
    const soon = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(measure);
    };
    // … when the box is resized …
    const resized = new ResizeObserver(() => {
      const grew = box.clientWidth > width + WIDER;
      if (grew || box.clientWidth < width) width = box.clientWidth;
      if (grew && latest.current.dropped.length) setDropped([]);
      else soon();
    });
    // … and when its rows change (a page of data arrives, a longer name).
    const changed = new MutationObserver(soon);
    resized.observe(box);
    changed.observe(box, { childList: true, subtree: true, characterData: true });
    return () => {
      cancelAnimationFrame(frame);
      resized.disconnect();
      changed.disconnect();
    };
  }, [box, measure]);

  return { dropped: dropped.filter((k) => candidates.includes(k)), boxRef: setBox };
}

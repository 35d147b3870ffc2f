/**
 * The tooltip of a button in a list row. MUI's default tooltip stays open while the pointer is over
 * the tooltip itself, so moving down the list left it covering the next row's buttons; and a click
 * that moves the row (Move up) or opens a dialog left it floating where the button had been. This one
 * is not interactive (leaving the button closes it), closes on a click until the pointer leaves and
 * comes back, and closes when anything scrolls.
 *
 * It costs a row nothing until it is wanted (issue 51.10): a list page holds a hundred and more of
 * them, and each MUI tooltip drawn around its button was a dozen components, drawn twice (it draws
 * again once it has its button's node), at every new page. So the button is drawn as it is, with the
 * tooltip's own listeners, and the tooltip is drawn beside it, anchored to it, from the first time the
 * pointer (or the keyboard's focus) reaches it. The button never moves in the tree, so it keeps its
 * focus and its node.
 */
import { cloneElement, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type MouseEvent, type ReactElement } from 'react';
import { Tooltip } from '@mui/material';

/** MUI's tooltip's delay before it shows on hover (its `enterDelay`), ms. */
const ENTER_DELAY_MS = 100;
/**
 * As MUI's: within this long of a row tooltip closing, the next one shows at once (moving along a
 * row's buttons, or back to the same one), ms (its hysteresis, 800 ms).
 */
const NEXT_AT_ONCE_MS = 800;
/** When a row tooltip last closed (performance.now()). */
let lastClosed = -Infinity;

interface Props {
  title: string;
  /** The button (or a `<span>` around a button that may be disabled). */
  children: ReactElement<{
    onClickCapture?: (e: MouseEvent) => void;
    onMouseOver?: (e: MouseEvent) => void;
    onMouseLeave?: (e: MouseEvent) => void;
    onFocus?: (e: FocusEvent) => void;
    onBlur?: (e: FocusEvent) => void;
  }>;
}

/** Whether the focus came from the keyboard (a click's focus shows no tooltip, as MUI's does not). */
function focusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
}

export function RowTooltip({ title, children }: Props) {
  const [open, setOpen] = useState(false);
  // The button, once the pointer or the focus has reached it: from then on the tooltip is drawn.
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Closed by a click: it stays closed while the pointer is still on the button.
  const held = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Listening from the moment it is drawn open: a scroll right after must close it too.
  useLayoutEffect(() => {
    if (!open) return;
    const close = () => {
      lastClosed = performance.now();
      setOpen(false);
    };
    window.addEventListener('scroll', close, true);
    return () => window.removeEventListener('scroll', close, true);
  }, [open]);
  const show = (target: HTMLElement, delay: number) => {
    if (held.current) return;
    setAnchor(target);
    clearTimeout(timer.current);
    if (delay && performance.now() - lastClosed > NEXT_AT_ONCE_MS) timer.current = setTimeout(() => setOpen(true), delay);
    else setOpen(true);
  };
  const hide = () => {
    clearTimeout(timer.current);
    if (open) lastClosed = performance.now();
    setOpen(false);
  };
  const { onClickCapture, onMouseOver, onMouseLeave, onFocus, onBlur } = children.props;
  const child = cloneElement(children, {
    onMouseOver: (e: MouseEvent) => {
      show(e.currentTarget as HTMLElement, ENTER_DELAY_MS);
      onMouseOver?.(e);
    },
    onFocus: (e: FocusEvent) => {
      if (e.target instanceof Element && focusVisible(e.target)) show(e.currentTarget as HTMLElement, 0);
      onFocus?.(e);
    },
    onClickCapture: (e: MouseEvent) => {
      held.current = true;
      hide();
      onClickCapture?.(e);
    },
    // Leaving the button ends the hold.
    onMouseLeave: (e: MouseEvent) => {
      held.current = false;
      hide();
      onMouseLeave?.(e);
    },
    onBlur: (e: FocusEvent) => {
      held.current = false;
      hide();
      onBlur?.(e);
    },
  });
  return (
    <>
      {child}
      {anchor && (
        // Its own child is a stand-in (hidden, out of the accessibility tree); it shows by the button.
        <Tooltip title={title} open={open} disableInteractive describeChild slotProps={{ popper: { anchorEl: anchor } }}>
          <span hidden aria-hidden />
        </Tooltip>
      )}
    </>
  );
}

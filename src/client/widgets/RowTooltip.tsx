/**
 * The tooltip of a button in a list row. MUI's default tooltip stays open while the pointer is over
 * the tooltip itself, so moving down the list left it covering the next row's buttons; and a click
 * that moves the row (Move up) or opens a dialog left it floating where the button had been. This one
 * is not interactive (leaving the button closes it), closes on a click until the pointer leaves and
 * comes back, and closes when anything scrolls.
 */
import { cloneElement, useLayoutEffect, useRef, useState, type FocusEvent, type MouseEvent, type ReactElement } from 'react';
import { Tooltip } from '@mui/material';

interface Props {
  title: string;
  /** The button (or a `<span>` around a button that may be disabled). */
  children: ReactElement<{
    onClickCapture?: (e: MouseEvent) => void;
    onMouseLeave?: (e: MouseEvent) => void;
    onBlur?: (e: FocusEvent) => void;
  }>;
}

export function RowTooltip({ title, children }: Props) {
  const [open, setOpen] = useState(false);
  // Closed by a click: it stays closed while the pointer is still on the button.
  const held = useRef(false);
  // Listening from the moment it is drawn open: a scroll right after must close it too.
  useLayoutEffect(() => {
    if (!open) return;
    const close = () => setOpen(false);
    window.addEventListener('scroll', close, true);
    return () => window.removeEventListener('scroll', close, true);
  }, [open]);
  const { onClickCapture, onMouseLeave, onBlur } = children.props;
  const child = cloneElement(children, {
    onClickCapture: (e: MouseEvent) => {
      held.current = true;
      setOpen(false);
      onClickCapture?.(e);
    },
    // Leaving the button ends the hold (MUI reports no close of a tooltip that is not open).
    onMouseLeave: (e: MouseEvent) => {
      held.current = false;
      onMouseLeave?.(e);
    },
    onBlur: (e: FocusEvent) => {
      held.current = false;
      onBlur?.(e);
    },
  });
  return (
    <Tooltip
      title={title}
      open={open}
      disableInteractive
      onOpen={() => {
        if (!held.current) setOpen(true);
      }}
      onClose={() => setOpen(false)}
    >
      {child}
    </Tooltip>
  );
}

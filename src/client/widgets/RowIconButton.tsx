/**
 * A list row's icon button (Details, Edit, More actions, Delete, History), drawn light (issue 51.10).
 * MUI's IconButton with its icon is ten components, each styled and drawn with its styles, and a page
 * holds a hundred and more of them: they were the largest part of drawing a page of rows. This is one
 * component around a plain `<button>` and `<svg>` wearing MUI's classes, looking the same: MUI's
 * IconButton (small), ButtonBase and SvgIcon (small) styles, as those components give them, are given
 * once for all of them (`RowIconButtonStyles`, drawn once by the list screen). What MUI's ButtonBase
 * does besides, it does too: the ripple of a press and the pulse of a keyboard's focus (MUI's own
 * TouchRipple, mounted at the first press or focus, as ButtonBase mounts it), `Mui-focusVisible`.
 * RowTooltip gives it its tooltip, as it gives MUI's buttons theirs.
 */
import {
  forwardRef,
  useEffect,
  useState,
  type ComponentType,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefAttributes,
  type TouchEvent,
} from 'react';
import { GlobalStyles, type Theme } from '@mui/material';
import type { SvgIconComponent } from '@mui/icons-material';
import MuiTouchRipple, { type TouchRippleActions, type TouchRippleProps } from '@mui/material/ButtonBase/TouchRipple';
import useLazyRipple from '@mui/material/useLazyRipple';

// (Its type says a render function; it is a component, as ButtonBase draws it.)
const TouchRipple = MuiTouchRipple as unknown as ComponentType<TouchRippleProps & RefAttributes<TouchRippleActions>>;

/** The class that gives it MUI's looks (the rules below). */
const ROOT = 'row-icon-button';

/** Whether the element's focus came from the keyboard (MUI's test, `isFocusVisible`). */
function focusVisible(element: EventTarget): boolean {
  try {
    return element instanceof Element && element.matches(':focus-visible');
  } catch {
    return false;
  }
}

/** An MUI icon's drawing (its `<path>`s), read once from the icon itself; `undefined` when it cannot be. */
const drawings = new WeakMap<SvgIconComponent, ReactNode>();
function drawingOf(Icon: SvgIconComponent): ReactNode | undefined {
  if (drawings.has(Icon)) return drawings.get(Icon);
  let drawing: ReactNode | undefined;
  try {
    // createSvgIcon's component (a memo of a forwardRef) draws an SvgIcon around the icon's paths.
    const render = (Icon as unknown as { type?: { render?: (props: object, ref: null) => { props?: { children?: ReactNode } } } }).type?.render;
    drawing = render?.({}, null)?.props?.children;
  } catch {
    drawing = undefined;
  }
  drawings.set(Icon, drawing);
  return drawing;
}

interface Props {
  /** Its accessible name (the tooltip says it too). */
  label: string;
  icon: SvgIconComponent;
  color?: 'error';
  onClick?: (e: MouseEvent<HTMLButtonElement>) => void;
  /** Given by RowTooltip, or by a menu's button. */
  onMouseOver?: (e: MouseEvent<HTMLButtonElement>) => void;
  onMouseLeave?: (e: MouseEvent<HTMLButtonElement>) => void;
  onFocus?: (e: FocusEvent<HTMLButtonElement>) => void;
  onBlur?: (e: FocusEvent<HTMLButtonElement>) => void;
  onClickCapture?: (e: MouseEvent<HTMLButtonElement>) => void;
  'aria-haspopup'?: 'menu';
  'aria-controls'?: string;
  'aria-expanded'?: 'true';
}

export const RowIconButton = forwardRef<HTMLButtonElement, Props>(function RowIconButton(
  { label, icon: Icon, color, onClick, onMouseLeave, onFocus, onBlur, ...rest },
  ref,
) {
  const ripple = useLazyRipple();
  const [focused, setFocused] = useState(false);
  // As ButtonBase: a keyboard's focus pulses (once the ripple is there to pulse).
  useEffect(() => {
    if (focused) ripple.pulsate();
  }, [focused, ripple]);
  const drawing = drawingOf(Icon);
  const className = [`MuiButtonBase-root MuiIconButton-root`, color === 'error' && 'MuiIconButton-colorError', 'MuiIconButton-sizeSmall', focused && 'Mui-focusVisible', ROOT]
    .filter(Boolean)
    .join(' ');
  const start = (e: MouseEvent | TouchEvent) => ripple.start(e);
  const stop = (e: MouseEvent | TouchEvent | FocusEvent) => ripple.stop(e);
  return (
    <button
      ref={ref}
      type="button"
      tabIndex={0}
      className={className}
      aria-label={label}
      onClick={onClick}
      onMouseDown={start}
      onMouseUp={stop}
      onContextMenu={stop}
      onDragLeave={stop}
      onTouchStart={start}
      onTouchEnd={stop}
      onTouchMove={stop}
      onMouseLeave={(e) => {
        if (focused) e.preventDefault();
        onMouseLeave?.(e);
        ripple.stop(e);
      }}
      onFocus={(e) => {
        if (focusVisible(e.target)) setFocused(true);
        onFocus?.(e);
      }}
      onBlur={(e) => {
        if (!focusVisible(e.target)) setFocused(false);
        onBlur?.(e);
        ripple.stop(e);
      }}
      onKeyDown={(e: KeyboardEvent) => {
        if (!e.repeat && focused && e.key === ' ') ripple.stop(e as unknown as MouseEvent, () => ripple.start(e as unknown as MouseEvent));
      }}
      onKeyUp={(e: KeyboardEvent) => {
        if (e.key === ' ' && focused && !e.defaultPrevented) ripple.stop(e as unknown as MouseEvent, () => ripple.pulsate(e as unknown as MouseEvent));
      }}
      {...rest}
    >
      {drawing === undefined ? (
        <Icon fontSize="small" />
      ) : (
        <svg className="MuiSvgIcon-root MuiSvgIcon-fontSizeSmall" focusable="false" aria-hidden="true" viewBox="0 0 24 24">
          {drawing}
        </svg>
      )}
      {ripple.shouldMount && <TouchRipple ref={ripple.ref} center />}
    </button>
  );
});

/**
 * The looks of every RowIconButton: MUI's ButtonBase, IconButton (small, and its error colour) and
 * SvgIcon (small) styles, as those components give them, each at the weight of one class.
 */
function styles(theme: Theme) {
  const t = theme as Theme & { alpha: (color: string, value: number | string) => string; vars?: Theme };
  const palette = (t.vars ?? theme).palette;
  const hover = (color: string) => t.alpha(color, palette.action.hoverOpacity);
  return {
    [`.${ROOT}`]: {
      // ButtonBase
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      position: 'relative',
      boxSizing: 'border-box',
      WebkitTapHighlightColor: 'transparent',
      backgroundColor: 'transparent',
      outline: 0,
      border: 0,
      margin: 0,
      borderRadius: 0,
      padding: 0,
      cursor: 'pointer',
      userSelect: 'none',
      verticalAlign: 'middle',
      MozAppearance: 'none',
      WebkitAppearance: 'none',
      textDecoration: 'none',
      color: 'inherit',
      '&::-moz-focus-inner': { borderStyle: 'none' },
      '@media print': { colorAdjust: 'exact' },
    },
    [`.${ROOT}.MuiIconButton-root`]: {
      // IconButton, small
      textAlign: 'center',
      flex: '0 0 auto',
      fontSize: theme.typography.pxToRem(18),
      padding: 5,
      borderRadius: '50%',
      color: palette.action.active,
      transition: theme.transitions.create('background-color', { duration: theme.transitions.duration.shortest }),
      '--IconButton-hoverBg': hover(palette.action.active),
      '&:hover': {
        backgroundColor: 'var(--IconButton-hoverBg)',
        '@media (hover: none)': { backgroundColor: 'transparent' },
      },
      '&.MuiIconButton-colorError': {
        color: palette.error.main,
        '--IconButton-hoverBg': hover(palette.error.main),
      },
      // SvgIcon, small
      '& > .MuiSvgIcon-root': {
        userSelect: 'none',
        width: '1em',
        height: '1em',
        display: 'inline-block',
        flexShrink: 0,
        transition: theme.transitions.create('fill', { duration: theme.transitions.duration.shorter }),
        fill: 'currentColor',
        fontSize: theme.typography.pxToRem(20),
      },
    },
  };
}

/** Drawn once where row buttons are shown (the list screen): their looks. */
export const RowIconButtonStyles = <GlobalStyles styles={styles} />;

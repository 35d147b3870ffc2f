/**
 * Light and dark themes (spec §1: default light, follows the system setting). react-admin picks
 * dark when the system prefers it and no choice is stored; the app bar's toggle stores a choice.
 * Both themes share what accessibility asks of every screen (`accessible` below).
 */
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

const shape = { borderRadius: 8 };

/**
 * A focus ring on whatever the keyboard reaches (MUI only tints a focused button's background, which
 * is hard to see), and no motion for those who ask the system for less (transitions and the ripple's
 * animation end at once; MUI's transitions still call their handlers).
 */
function accessible(ring: string): RaThemeOptions['components'] {
  return {
    MuiCssBaseline: {
      styleOverrides: {
        // `body` outranks MUI's own `outline: 0` on buttons (one class), which would otherwise win.
        'body :focus-visible, body .Mui-focusVisible': { outline: `2px solid ${ring}`, outlineOffset: 2 },
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': {
            animationDuration: '0.01ms !important',
            animationIterationCount: '1 !important',
            transitionDuration: '0.01ms !important',
            scrollBehavior: 'auto !important',
          },
        },
      },
    },
    // On the app bar's own colour the ring takes the bar's text colour, which is made to contrast with it.
    MuiAppBar: { styleOverrides: { root: { '& :focus-visible, & .Mui-focusVisible': { outlineColor: 'currentColor' } } } },
    // Every spinner (react-admin's loading indicator, a list loading) is a progressbar: it needs a name.
    MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
  };
}

/**
 * How long a list's filter form waits after the last keystroke of a search (or a filter's change)
 * before it applies it. react-admin's filter form has its own 500 ms (FilterLiveForm's `debounce`,
 * not the List's, which only delays `setFilters(…, true)` calls): it was most of what a search took
 * (issue 51.10). Shorter is cheap now that a request a later keystroke made stale is cancelled
 * (providers/data.ts, `supportAbortSignal`).
 */
export const FILTER_DEBOUNCE_MS = 150;

/** What every list's filter form is given (react-admin reads `RaFilterForm`'s default props from the theme). */
const listFilterForm = { RaFilterForm: { defaultProps: { debounce: FILTER_DEBOUNCE_MS } } } as RaThemeOptions['components'];

/**
 * Whether the system asks for less motion, read when the app starts. The CSS above ends transitions at
 * once, but MUI still waits out a transition's duration before it unmounts what left (a closed dialog
 * stayed in the page, unseen, for 195 ms): with no motion asked for, durations are nothing at all.
 */
const stillByRequest = typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** MUI's transition durations (ms) when the system asks for less motion: none. */
function transitionsFor(still: boolean): RaThemeOptions['transitions'] {
  if (!still) return undefined;
  const none = { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 };
  return { duration: none };
}

const transitions = transitionsFor(stillByRequest);

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  shape,
  transitions,
  palette: { ...defaultLightTheme.palette, mode: 'light', primary: { main: '#1e5aa8' }, secondary: { main: '#173a6b' } },
  components: { ...defaultLightTheme.components, ...accessible('#1e5aa8'), ...listFilterForm },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  shape,
  transitions,
  palette: { ...defaultDarkTheme.palette, mode: 'dark', primary: { main: '#90caf9' }, secondary: { main: '#90caf9' } },
  components: { ...defaultDarkTheme.components, ...accessible('#90caf9'), ...listFilterForm },
};

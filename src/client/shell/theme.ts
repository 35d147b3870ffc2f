/**
 * Light and dark themes (spec §1: default light, follows the system setting). react-admin picks
 * dark when the system prefers it and no choice is stored; the app bar's toggle stores a choice.
 */
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

const shape = { borderRadius: 8 };

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  shape,
  palette: { ...defaultLightTheme.palette, mode: 'light', primary: { main: '#1e5aa8' }, secondary: { main: '#173a6b' } },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  shape,
  palette: { ...defaultDarkTheme.palette, mode: 'dark', primary: { main: '#90caf9' }, secondary: { main: '#90caf9' } },
};

/**
 * What shows while something loads: placeholders that say so (a role and a name, not `aria-label` on a
 * plain span, which axe calls aria-prohibited-attr), and from the first moment after sign-in the shell
 * (app bar, menu column) around them, not a blank page for the second react-admin's own loading page
 * waits before it draws (issue 51.8). Small and static: it is in the first chunk, with the app.
 */
import { createContext, useContext, type ReactNode } from 'react';
import { AppBar, Box, Skeleton, Toolbar, Typography, type SkeletonProps } from '@mui/material';
import { APP_NAME } from './app-name.ts';

/** A skeleton announced as loading `label` (an indeterminate progressbar: no value, a name). */
export function LoadingSkeleton({ label, ...props }: SkeletonProps & { label: string }) {
  return <Skeleton role="progressbar" aria-label={label} {...props} />;
}

/** A screen's content while it loads: a title's and a few rows' shapes, one progressbar for all. */
export function ContentLoading({ label = 'Loading' }: { label?: string }) {
  return (
    <Box role="progressbar" aria-label={label} sx={{ py: 2, px: { xs: 1, sm: 0 } }}>
      <Skeleton variant="text" width="30%" height={40} />
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} variant="rounded" height={56} sx={{ mt: 1.5 }} />
      ))}
    </Box>
  );
}

/** Whether a loading screen stands inside the real layout (then it draws the content only). */
const InShell = createContext(false);

/** Marks what it wraps as inside the layout (Layout.tsx wraps the screens' content). */
export function ShellContent({ children }: { children: ReactNode }) {
  return <InShell.Provider value>{children}</InShell.Provider>;
}

/**
 * The loading screen: inside the layout, its content's placeholder; outside it (signing in, the
 * layout's code still on its way), the same inside a shell shaped like the layout's, so that what
 * comes next fills it in rather than appearing on a blank page.
 */
export function ShellLoading() {
  const inShell = useContext(InShell);
  if (inShell) return <ContentLoading />;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh', bgcolor: 'background.default' }}>
      {/* react-admin's app bar: its colour, and its height (dense from sm up). */}
      <AppBar position="static" color="secondary" elevation={1}>
        <Toolbar sx={{ minHeight: { xs: 56, sm: 48 } }}>
          <Typography component="span" variant="h6" noWrap>
            {APP_NAME}
          </Typography>
        </Toolbar>
      </AppBar>
      <Box sx={{ display: 'flex', flexGrow: 1 }}>
        {/* The menu's column (hidden on a phone, as the real one is): shapes only, nothing to read. */}
        <Box aria-hidden sx={{ width: 240, flexShrink: 0, display: { xs: 'none', sm: 'block' }, px: 2, pt: 1 }}>
          {[0, 1, 2, 3, 4, 5].map((i) => (
            <Skeleton key={i} variant="text" height={36} />
          ))}
        </Box>
        <Box component="main" sx={{ flexGrow: 1, minWidth: 0, px: 1 }}>
          <ContentLoading />
        </Box>
      </Box>
    </Box>
  );
}

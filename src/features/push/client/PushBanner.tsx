/**
 * The opt-in banner (spec §4, §9): appears PUSH_BANNER.delayMs after load when push is supported, the
 * user is not subscribed, permission is not denied and it was not dismissed in the last 24 hours
 * (remembered in localStorage). A non-modal region floating at the bottom centre (a snackbar), clear of
 * the side menu and of the toasts at the bottom right: in the page's flow it pushed the list down by its
 * height under the pointer 5 s after load (issue 51.8). It takes no focus; Escape dismisses it. A spacer
 * of its height ends the content, so the page's last rows and pager can scroll clear of it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Button, Paper, Snackbar, Stack, Typography } from '@mui/material';
import { PUSH_BANNER } from '../../notifications/contract.ts';
import { PUSH_TEXTS } from '../messages.ts';
import { usePush } from './usePush.tsx';
import { usePushToast } from './outcome.ts';

/** Where the time of the last dismissal is kept. */
export const BANNER_DISMISSED_KEY = 'push-banner-dismissed-at';

function dismissedRecently(now = Date.now()): boolean {
  try {
    const at = Number(localStorage.getItem(BANNER_DISMISSED_KEY));
    return at > 0 && now - at < PUSH_BANNER.dismissedForMs;
  } catch {
    return false;
  }
}

export function PushBanner() {
  const push = usePush();
  const show = usePushToast();
  const [due, setDue] = useState(false);
  const [closed, setClosed] = useState(() => dismissedRecently());
  const card = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), PUSH_BANNER.delayMs);
    return () => clearTimeout(timer);
  }, []);
  const shown = due && !closed && push.supported && !push.subscribed && push.permission !== 'denied';
  // The spacer follows the card's height (its text wraps differently on a phone, at 200 % zoom).
  useLayoutEffect(() => {
    const el = card.current;
    if (!shown || !el) return;
    setHeight(el.offsetHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => el.offsetHeight && setHeight(el.offsetHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [shown]);
  // At the end of the content (Layout.tsx puts the banner after it): it adds room below, moving nothing
  // above. It stays once the banner goes, so a page scrolled to its end does not jump at the dismissal.
  const spacer = height ? <Box aria-hidden sx={{ height: `${height + 24}px` }} /> : null;
  if (!shown) return spacer;

  const dismiss = () => {
    try {
      localStorage.setItem(BANNER_DISMISSED_KEY, String(Date.now()));
    } catch {
      // Storage refused (private mode): dismissed for this page only.
    }
    setClosed(true);
  };
  const enable = async () => {
    const outcome = await push.subscribe();
    show(outcome, PUSH_TEXTS.enabled);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') dismiss();
  };
  return (
    <>
      {spacer}
      <Snackbar
        open
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
        // Over the content, under the app bar, the phone's menu drawer and dialogs (not MUI's 1400 for
        // snackbars, which would float over an open dialog's backdrop).
        sx={{ zIndex: (theme) => theme.zIndex.appBar - 1 }}
      >
        <Paper
          ref={card}
          role="region"
          aria-labelledby="push-banner-title"
          aria-describedby="push-banner-text"
          elevation={6}
          onKeyDown={onKeyDown}
          sx={{ p: 2, width: '100%', maxWidth: 440, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}
        >
          <Box sx={{ flex: '1 1 240px' }}>
            <Typography id="push-banner-title" variant="subtitle1" component="h2">
              {PUSH_TEXTS.bannerTitle}
            </Typography>
            <Typography id="push-banner-text" variant="body2">
              {PUSH_TEXTS.bannerText}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button onClick={dismiss}>{PUSH_TEXTS.notNow}</Button>
            <Button variant="contained" disabled={push.subscribing} onClick={() => void enable()}>
              {PUSH_TEXTS.enable}
            </Button>
          </Stack>
        </Paper>
      </Snackbar>
    </>
  );
}

/**
 * The opt-in banner (spec §4, §9): appears PUSH_BANNER.delayMs after load when push is supported, the
 * user is not subscribed, permission is not denied and it was not dismissed in the last 24 hours
 * (remembered in localStorage). A non-modal region at the top of the content, in the page's flow: it
 * takes no focus and covers nothing (a floating card would sit over list pagers and menu entries);
 * Escape dismisses it.
 */
import { useEffect, useState, type KeyboardEvent } from 'react';
import { Box, Button, Paper, Stack, Typography } from '@mui/material';
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
  useEffect(() => {
    const timer = setTimeout(() => setDue(true), PUSH_BANNER.delayMs);
    return () => clearTimeout(timer);
  }, []);
  if (!due || closed || !push.supported || push.subscribed || push.permission === 'denied') return null;

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
    <Paper
      role="region"
      aria-labelledby="push-banner-title"
      aria-describedby="push-banner-text"
      variant="outlined"
      onKeyDown={onKeyDown}
      sx={{ p: 2, my: 1, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5 }}
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
  );
}

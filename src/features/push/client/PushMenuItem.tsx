/**
 * The push toggle, in the account menu: a switch-like menu item (role `menuitemcheckbox`) that subscribes
 * when off and unsubscribes when on (spec §4), and toasts how it went.
 */
import { forwardRef } from 'react';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import ToggleOff from '@mui/icons-material/ToggleOff';
import ToggleOn from '@mui/icons-material/ToggleOn';
import { PUSH_TEXTS } from '../messages.ts';
import { usePush } from './usePush.tsx';
import { usePushToast } from './outcome.ts';

export const PushMenuItem = forwardRef<HTMLLIElement>(function PushMenuItem(_, ref) {
  const push = usePush();
  const show = usePushToast();
  const busy = push.subscribing || push.unsubscribing;
  const toggle = async () => {
    const wasOn = push.subscribed;
    show(await push.toggle(), wasOn ? PUSH_TEXTS.disabled : PUSH_TEXTS.enabled);
  };
  return (
    <MenuItem ref={ref} role="menuitemcheckbox" aria-checked={push.subscribed} disabled={busy} onClick={() => void toggle()}>
      <ListItemIcon>
        <NotificationsActive fontSize="small" />
      </ListItemIcon>
      <ListItemText>{push.subscribed ? PUSH_TEXTS.toggleOn : PUSH_TEXTS.toggleOff}</ListItemText>
      {/* The item's own checked state is what assistive technology reads; the icon only shows it. */}
      {push.subscribed ? <ToggleOn color="primary" sx={{ ml: 1 }} /> : <ToggleOff sx={{ ml: 1 }} />}
    </MenuItem>
  );
});

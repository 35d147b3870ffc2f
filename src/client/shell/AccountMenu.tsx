/**
 * The app bar's account menu. react-admin's own labels its button "Profile" while it shows the user's
 * name, and gives the avatar the name as its alt text beside the same name: a screen reader hears the
 * name twice and a voice-control user cannot say what they see. Here the button's name starts with the
 * name shown, and the avatar is decorative.
 */
import { useCallback, useMemo, useState, type MouseEvent } from 'react';
import { Avatar, Button, IconButton, Menu, Tooltip, useMediaQuery, type Theme } from '@mui/material';
import AccountCircle from '@mui/icons-material/AccountCircle';
import { Logout, UserMenuContextProvider, useGetIdentity } from 'react-admin';
import { ProfileMenuItem } from './ProfileMenuItem.tsx';
import { ChangePasswordDialog, ChangePasswordMenuItem } from './self-service/ChangePasswordMenuItem.tsx';
import { PushMenuItem } from '../../features/push/client/PushMenuItem.tsx';

export function AccountMenu() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // The dialog outlives the menu, which closes as it opens.
  const [changingPassword, setChangingPassword] = useState(false);
  const { isPending, identity } = useGetIdentity();
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  const onClose = useCallback(() => setAnchor(null), []);
  const context = useMemo(() => ({ onClose }), [onClose]);
  const open = (e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget);
  const name = !isPending && identity?.fullName ? String(identity.fullName) : '';
  const picture = identity?.avatar ? <Avatar src={String(identity.avatar)} alt="" sx={{ width: 24, height: 24 }} /> : <AccountCircle />;
  const popup = { 'aria-haspopup': true, 'aria-controls': anchor ? 'account-menu' : undefined, 'aria-expanded': anchor ? true : undefined } as const;
  return (
    <>
      {wide && name ? (
        <Button color="inherit" startIcon={picture} onClick={open} sx={{ textTransform: 'none', ml: 0.5 }} aria-label={`${name}, account menu`} {...popup}>
          {name}
        </Button>
      ) : (
        <Tooltip title="Account menu">
          <IconButton color="inherit" onClick={open} aria-label={name ? `${name}, account menu` : 'Account menu'} {...popup}>
            {picture}
          </IconButton>
        </Tooltip>
      )}
      <UserMenuContextProvider value={context}>
        <Menu id="account-menu" disableScrollLock anchorEl={anchor} open={!!anchor} onClose={onClose}>
          <ProfileMenuItem onClose={onClose} />
          <ChangePasswordMenuItem onClose={onClose} onOpen={() => setChangingPassword(true)} />
          <PushMenuItem />
          <Logout />
        </Menu>
      </UserMenuContextProvider>
      <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </>
  );
}

/**
 * "Profile" in the account menu: opens user-profile-details-modal (spec §2, §7) with the signed-in
 * user's record read fresh from `GET /getcurrentuser`, so the form shows what is stored now.
 */
import { forwardRef } from 'react';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import PersonIcon from '@mui/icons-material/Person';
import { PROFILE_DIALOG, users } from '../../../resources/people.ts';
import { useOpenDialog } from '../dialogs/context.ts';
import { failureToast } from '../dialogs/outcome.ts';
import { send } from '../providers/http.ts';
import { useToast } from './toast.tsx';

export const ProfileMenuItem = forwardRef<HTMLLIElement, { onClose: () => void }>(function ProfileMenuItem({ onClose }, ref) {
  const openDialog = useOpenDialog();
  const toast = useToast();
  const open = async () => {
    onClose();
    try {
      const { json } = await send(users.reads.current.call, {});
      openDialog(PROFILE_DIALOG, json as Record<string, unknown>);
    } catch (error) {
      toast(failureToast('Unable to load your profile!', error));
    }
  };
  return (
    <MenuItem ref={ref} onClick={() => void open()}>
      <ListItemIcon>
        <PersonIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>Profile</ListItemText>
    </MenuItem>
  );
});

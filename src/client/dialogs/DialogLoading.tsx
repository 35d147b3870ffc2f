/** A dialog's body while something it shows is on its way (its code, its record): a spinner named for it. */
import { CircularProgress, DialogContent } from '@mui/material';

export function DialogLoading({ label }: { label: string }) {
  return (
    <DialogContent sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
      <CircularProgress aria-label={label} />
    </DialogContent>
  );
}

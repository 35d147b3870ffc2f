/** `list.failure`: the alert a list shows instead of its rows when it cannot load (spec §8 social links). */
import { Alert, AlertTitle } from '@mui/material';
import type { ListBehaviour } from '../../manifest/index.ts';

export function ListFailure({ failure }: { failure: NonNullable<ListBehaviour['failure']> }) {
  return (
    <Alert severity="error" sx={{ m: 2 }}>
      <AlertTitle>{failure.title}</AlertTitle>
      {failure.message}
    </Alert>
  );
}

/**
 * The staff's queue (`GET /support-panel/queue`): open and waiting requests, most urgent first, then
 * oldest, each with its SLA clock (due in, overdue), opening the request's live thread.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, LinearProgress, List, ListItemButton, ListItemText, Paper, Typography } from '@mui/material';
import { Link, Title } from 'react-admin';
import { supportRequests } from '../../../../resources/support-requests.ts';
import { send } from '../../../client/providers/http.ts';
import { QUEUE_TITLE, requestPath } from '../contract.ts';
import { failureText } from './failure.ts';

type Queued = { id: string; content: string; status: string; assigneeId?: string | null; sla: { overdue: boolean; text: string; target: string } };

export function SupportQueue() {
  const [rows, setRows] = useState<Queued[]>();
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    setError(undefined);
    send(supportRequests.operations.queue.call, {})
      .then(({ json }) => setRows(Array.isArray(json) ? (json as Queued[]) : []))
      .catch((e) => setError(failureText(e)));
  }, []);
  useEffect(load, [load]);

  return (
    <Box sx={{ display: 'grid', gap: 2, p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Title title={QUEUE_TITLE} />
      <Typography component="h2" variant="h6">
        Open requests, most urgent first
      </Typography>
      {error && (
        <Alert severity="error" action={<Button onClick={load}>Retry</Button>}>
          {error}
        </Alert>
      )}
      {!rows && !error && <LinearProgress aria-label="Loading the queue" />}
      {rows && !rows.length && <Alert severity="info">Nothing waiting: every request is resolved.</Alert>}
      {rows && rows.length > 0 && (
        <Paper>
          <List aria-label="Open requests">
            {rows.map((r) => (
              <ListItemButton key={r.id} component={Link} to={requestPath(r.id)} divider>
                <ListItemText primary={r.content} secondary={`${r.status === 'OPEN' ? 'Open' : 'Waiting for the asker'}${r.assigneeId ? '' : ' · unclaimed'}`} slotProps={{ primary: { sx: { wordBreak: 'break-word' } } }} />
                <Chip size="small" variant="outlined" color={r.sla.overdue ? 'error' : 'default'} label={`${r.sla.target}: ${r.sla.text}`} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
    </Box>
  );
}

/**
 * A support request's page (`/support/requests/{id}`, the `redirectUrl` asking answers): what was
 * asked, its status and, for staff, its SLA clock, Claim and Resolve; below, the live thread. The
 * asker and staff write in it; the product's seller reads it (the server refuses its replies: 403).
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, Stack, Typography } from '@mui/material';
import { Title, useGetIdentity, usePermissions } from 'react-admin';
import { supportRequests } from '../../../../resources/support-requests.ts';
import { transitionCall } from '../../../manifest/index.ts';
import { send } from '../../../client/providers/http.ts';
import { ContentLoading } from '../../../client/shell/loading.tsx';
import { ASKER_ROLES, isStaffRole, slaOf, slaText } from '../contract.ts';
import { Thread } from './Thread.tsx';
import { failureText } from './failure.ts';

type Request = Record<string, unknown> & { id: string; status: string; content: string };

const STATUS = Object.fromEntries((supportRequests.fields.find((f) => f.name === 'status')?.choices ?? []).map((c) => [c.value, c.label]));
const transition = (name: string) => {
  const t = supportRequests.fields.find((f) => f.name === 'status')!.states!.transitions.find((x) => x.name === name)!;
  return transitionCall(supportRequests, t);
};


export function RequestPage({ id }: { id: string }) {
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const staff = isStaffRole(permissions);
  const [request, setRequest] = useState<Request>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    send(supportRequests.reads.one!.call, { id })
      .then(({ json }) => setRequest(json as Request))
      .catch((e) => setError(failureText(e)));
  }, [id]);
  useEffect(load, [load]);

  const act = async (call: Parameters<typeof send>[0]) => {
    setBusy(true);
    setError(undefined);
    try {
      await send(call, { id }, {});
      load();
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  };

  if (!request && !error) return <ContentLoading />;
  const asker = request && identity && String(request.askerId) === String(identity.id);
  const writes = staff || (!!asker && (ASKER_ROLES as readonly unknown[]).includes(permissions));
  const clock = request ? slaOf(request, new Date()) : undefined;
  return (
    <Box sx={{ display: 'grid', gap: 2, p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Title title="Support request" />
      {error && <Alert severity="error">{error}</Alert>}
      {request && (
        <>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
            <Typography component="h2" variant="h6" sx={{ flexGrow: 1, wordBreak: 'break-word' }}>
              {request.content}
            </Typography>
            <Chip label={STATUS[request.status] ?? request.status} />
            {staff && clock && request.status !== 'RESOLVED' && <Chip color={clock.overdue ? 'error' : 'default'} variant="outlined" label={`${clock.target}: ${slaText(clock)}`} />}
          </Stack>
          {staff && (
            <Stack direction="row" spacing={1}>
              {!request.assigneeId && (
                <Button variant="outlined" disabled={busy} onClick={() => void act(supportRequests.operations.claim.call)}>
                  Claim
                </Button>
              )}
              {request.status !== 'RESOLVED' && (
                <Button variant="outlined" disabled={busy} onClick={() => void act(transition('resolve'))}>
                  Resolve
                </Button>
              )}
            </Stack>
          )}
          <Thread kind="request" id={id} canWrite={writes} />
        </>
      )}
    </Box>
  );
}

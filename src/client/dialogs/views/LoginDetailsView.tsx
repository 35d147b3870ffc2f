/**
 * The `loginDetails` view (agent-login-details, seller-login-details, spec §2): the account's login (its
 * email), a link to its role's area on the product host (`/agent`, `/seller`), and "Issue a one-time
 * password". Stored passwords are never shown (none is ever answered); a one-time password is, once:
 * the answer to issuing it is the only place it appears, and closing the dialog forgets it.
 *
 * The record is a profile (an agent's or a seller's row, through their lists' `rowDialogs`) whose `userId`
 * names the account, or an account itself (the Users screen). The account is read fresh, so the login
 * shown is the one that signs in, and its role names the area.
 */
import { useEffect, useState } from 'react';
import { Alert, AlertTitle, Box, Button, Chip, DialogContent, Link, Stack, Typography } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import { Labeled, useResourceContext } from 'react-admin';
import { users } from '../../../../resources/people.ts';
import { homeOf } from '../../areas/areas.ts';
import { send } from '../../providers/http.ts';
import { useToast } from '../../shell/toast.tsx';
import { CloseActions } from '../DialogButtons.tsx';
import { DialogLoading } from '../DialogLoading.tsx';
import { failureToast } from '../outcome.ts';

export interface LoginDetailsViewProps {
  record: Record<string, unknown>;
  onClose: () => void;
}

type Account = Record<string, unknown>;

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

export const ISSUE_FAILURE = 'Unable to issue a one-time password!';

export function LoginDetailsView({ record, onClose }: LoginDetailsViewProps) {
  const resource = useResourceContext() ?? '';
  const toast = useToast();
  const accountId = text(record.userId) || (resource === users.name ? text(record.id) : '');
  const [account, setAccount] = useState<Account>();
  const [loadFailed, setLoadFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [issued, setIssued] = useState<{ password: string; email: string }>();

  useEffect(() => {
    if (!accountId) return;
    let live = true;
    send(users.reads.one.call, { id: accountId })
      .then(({ json }) => live && json && typeof json === 'object' && !Array.isArray(json) && setAccount(json as Account))
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, [accountId]);

  // Until the account is here, nothing of it is shown: the login, its state and the button come at once,
  // so nothing moves under a pointer on its way to a button (Close, at the bottom of a centred dialog).
  const loading = !!accountId && !account && !loadFailed;
  const email = text(account?.email) || text(record.email);
  // The account says whose area it signs in to (an agent's: /agent, a seller's: /seller).
  const role = text(account?.role) || (resource === users.name ? text(record.role) : '');
  const areaUrl = role ? `${window.location.origin}${homeOf(role)}` : '';

  async function issue() {
    setBusy(true);
    try {
      const { json } = await send(users.operations.issueOneTimePassword.call, { id: accountId });
      const answer = json as { password?: unknown; email?: unknown };
      setIssued({ password: text(answer.password), email: text(answer.email) || email });
      setConfirming(false);
    } catch (error) {
      toast(failureToast(ISSUE_FAILURE, error));
    } finally {
      setBusy(false);
    }
  }

  if (loading)
    return (
      <>
        <DialogLoading label="Loading account" />
        <CloseActions onClose={onClose} />
      </>
    );
  return (
    <>
      <DialogContent>
        <Stack spacing={2}>
          <Labeled label="Login (email)">
            <Typography sx={{ overflowWrap: 'anywhere' }}>{email || '—'}</Typography>
          </Labeled>
          <Labeled label="Area">
            {areaUrl ? (
              <Link href={areaUrl} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: 'anywhere' }}>
                {areaUrl}
              </Link>
            ) : (
              <Typography>—</Typography>
            )}
          </Labeled>
          {account && (account.status === 'DISABLED' || account.mustChangePassword === true) && (
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              {account.status === 'DISABLED' && <Chip size="small" color="error" label="Disabled" />}
              {account.mustChangePassword === true && <Chip size="small" color="warning" label="Must choose a new password" />}
            </Box>
          )}
          {!accountId && <Alert severity="warning">This record is linked to no account.</Alert>}
          {loadFailed && <Alert severity="warning">The account could not be loaded.</Alert>}
          {issued ? (
            <Alert severity="success" role="status">
              <AlertTitle>One-time password</AlertTitle>
              <Typography
                component="p"
                aria-label="One-time password"
                sx={{ fontFamily: 'monospace', fontSize: '1.25rem', letterSpacing: '0.08em', my: 1, userSelect: 'all' }}
              >
                {issued.password}
              </Typography>
              Shown only now. It was emailed to {issued.email || 'the account'} as well. At the next sign-in a new password
              must be chosen; the previous password and every open session no longer work.
            </Alert>
          ) : confirming ? (
            <Alert
              severity="warning"
              action={
                <Stack direction="row" spacing={1}>
                  <Button color="inherit" onClick={() => setConfirming(false)} disabled={busy}>
                    Cancel
                  </Button>
                  <Button color="error" variant="contained" onClick={() => void issue()} disabled={busy}>
                    Issue
                  </Button>
                </Stack>
              }
            >
              The current password stops working and every session of this account ends.
            </Alert>
          ) : (
            <Box>
              <Button variant="outlined" startIcon={<KeyIcon />} disabled={!accountId} onClick={() => setConfirming(true)}>
                Issue a one-time password
              </Button>
            </Box>
          )}
        </Stack>
      </DialogContent>
      <CloseActions onClose={onClose} />
    </>
  );
}

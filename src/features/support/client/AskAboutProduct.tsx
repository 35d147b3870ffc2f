/**
 * "Ask support" on a shop product (issue 53 point 3): the asking roles (a buyer cannot read the admin's
 * product list, so the generic dialog's product picker is not theirs) ask about the product in view.
 * It sends the manifest's createSupportRequest (`POST /support-panel` {product, content}) with its rule
 * and texts, and follows the answer's `redirectUrl` to the request's live thread.
 */
import { useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import HelpIcon from '@mui/icons-material/Help';
import { useNavigate, usePermissions } from 'react-admin';
import { contentRule, supportRequests } from '../../../../resources/support-requests.ts';
import { allows } from '../../../manifest/index.ts';
import { send } from '../../../client/providers/http.ts';
import { redirectOf } from '../../../client/dialogs/outcome.ts';
import { requestPath } from '../contract.ts';
import { failureText } from './failure.ts';
import { MAX_MESSAGE } from './Thread.tsx';

const ask = supportRequests.dialogs.createSupportRequest;

export function AskAboutProduct({ product }: { product: { id: string; name: string } }) {
  const { permissions } = usePermissions();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [content, setContent] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!('call' in ask) || !ask.access || !allows(ask.access, permissions)) return null;
  const title = `Ask support about ${product.name}`;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = contentRule.safeParse(content);
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    setBusy(true);
    setError(undefined);
    try {
      const { json } = await send(ask.call, {}, { product: product.id, content: checked.data });
      setOpen(false);
      navigate(redirectOf(json) ?? requestPath(String(json.id)));
    } catch (e) {
      setError(`${ask.failure} ${failureText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button startIcon={<HelpIcon />} onClick={() => setOpen(true)} aria-label={title}>
        Ask support
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="sm" aria-labelledby={`ask-${product.id}`}>
        <DialogTitle id={`ask-${product.id}`}>{title}</DialogTitle>
        <form onSubmit={submit} noValidate>
          <DialogContent>
            <TextField
              autoFocus
              fullWidth
              multiline
              minRows={3}
              name="content"
              label="Message"
              value={content}
              onChange={(e) => {
                setContent(e.target.value);
                setError(undefined);
              }}
              error={!!error}
              helperText={error ?? `${content.length}/${MAX_MESSAGE}`}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant="contained" disabled={busy}>
              Send
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}

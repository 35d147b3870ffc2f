/**
 * An open auction (the auctions' `auctionLive` details dialog, resources/auctions.ts): its product, its
 * starting price, the highest bid, the number of bids and the end, kept live over the realtime socket
 * (`AUCTION_EVENT`, src/features/auctions/server.ts), and a countdown to the end. A buyer places a bid
 * here (`POST /auctions/bits`, the bids' declared operation); the server judges it (the step, the
 * running time) and its refusal is shown as the server says it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Box, Button, DialogContent, Stack, TextField, Typography } from '@mui/material';
import { usePermissions, useRefresh } from 'react-admin';
import type { DialogDef } from '../../manifest/index.ts';
import { mayCall } from '../../manifest/index.ts';
import type { DialogBodyProps } from '../../client/dialogs/context.ts';
import { CloseActions } from '../../client/dialogs/DialogButtons.tsx';
import { answerOf, failureToast, fieldErrorsOf, successToast } from '../../client/dialogs/outcome.ts';
import { send } from '../../client/providers/http.ts';
import { useRegistry } from '../../client/registry/context.tsx';
import { useToast } from '../../client/shell/toast.tsx';
import { formatMoney } from '../../domain/money.ts';
import { SOCKET_PATH } from '../notifications/contract.ts';
import { AUCTION_EVENT, type AuctionUpdate } from './contract.ts';

type Live = Omit<AuctionUpdate, 'id'>;

const liveOf = (data: Record<string, unknown> | undefined): Live => ({
  price: Number(data?.price ?? 0),
  highestBid: data?.highestBid === null || data?.highestBid === undefined ? null : Number(data.highestBid),
  bidCount: Number(data?.bidCount ?? 0),
  enddate: String(data?.enddate ?? ''),
  status: String(data?.status ?? ''),
});

/** Time left until `end`, in words: '2 h 5 min 3 s', or 'Ended'. */
function timeLeft(end: string, now: number): string {
  const ms = Date.parse(end) - now;
  if (!(ms > 0)) return 'Ended';
  const s = Math.floor(ms / 1000);
  const parts = [
    [Math.floor(s / 86400), 'd'],
    [Math.floor((s % 86400) / 3600), 'h'],
    [Math.floor((s % 3600) / 60), 'min'],
    [s % 60, 's'],
  ] as const;
  return parts
    .filter(([n], i) => n > 0 || i === parts.length - 1)
    .map(([n, unit]) => `${n} ${unit}`)
    .join(' ');
}

/** Listens to the auction's updates over a socket of its own while the dialog is open. */
function useLiveAuction(id: string, initial: Live): Live {
  const [live, setLive] = useState(initial);
  useEffect(() => {
    let closed = false;
    let disconnect: (() => void) | undefined;
    import('socket.io-client')
      .then(({ io }) => {
        if (closed) return;
        const socket = io({ path: SOCKET_PATH, withCredentials: true });
        socket.on('connect_error', () => socket.disconnect());
        socket.on(AUCTION_EVENT, (update: AuctionUpdate) => {
          if (update?.id === id) setLive({ price: update.price, highestBid: update.highestBid, bidCount: update.bidCount, enddate: update.enddate, status: update.status });
        });
        disconnect = () => socket.disconnect();
      })
      .catch((error) => console.error('auctions: the socket client did not load', error));
    return () => {
      closed = true;
      disconnect?.();
    };
  }, [id]);
  return live;
}

export default function AuctionLive({ data, onClose }: DialogBodyProps<DialogDef>) {
  const id = String(data?.id ?? '');
  const live = useLiveAuction(id, liveOf(data));
  const [now, setNow] = useState(() => Date.now());
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const refresh = useRefresh();
  const { permissions } = usePermissions();
  const bids = useRegistry().resource('auctionBids');
  const place = bids.operations.place;
  const mayBid = !!place && mayCall(permissions, bids, { operation: place }) && live.status === 'OPEN';

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await send(place.call, {}, { auction: id, amount: Number(amount) });
      toast(successToast('Your bid was placed.'));
      setAmount('');
      refresh();
    } catch (e) {
      setError(fieldErrorsOf(answerOf(e))?.amount?.[0]);
      toast(failureToast('Unable to place bid!', e));
    } finally {
      setBusy(false);
    }
  };

  const rows: [string, string][] = [
    ['Product', String(data?.productName ?? '')],
    ['Starting price', formatMoney(live.price)],
    ['Highest bid', live.highestBid === null ? 'No bids yet' : formatMoney(live.highestBid)],
    ['Bids', String(live.bidCount)],
    ['Ends', live.enddate ? new Date(live.enddate).toLocaleString() : ''],
    ['Time left', live.status === 'OPEN' ? timeLeft(live.enddate, now) : 'Closed'],
  ];
  return (
    <>
      <DialogContent tabIndex={0} aria-label="Live auction">
        <Box component="dl" aria-live="polite" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 1, m: 0 }}>
          {rows.map(([label, value]) => (
            <Box key={label} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" variant="body1" sx={{ m: 0 }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        {mayBid && (
          <Stack component="form" direction="row" spacing={1} sx={{ mt: 2, alignItems: 'flex-start' }} onSubmit={submit}>
            <TextField
              label="Your bid"
              type="number"
              size="small"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              error={!!error}
              helperText={error}
              slotProps={{ htmlInput: { min: 0, step: 0.01 } }}
              required
            />
            <Button type="submit" variant="contained" disabled={busy || !amount}>
              Place bid
            </Button>
          </Stack>
        )}
      </DialogContent>
      <CloseActions onClose={onClose} />
    </>
  );
}

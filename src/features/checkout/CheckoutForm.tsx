/**
 * The buyer's checkout (issue 52 point 3), below the cart's totals: where to deliver, which of the
 * admin's payment methods was used (its paying instructions shown), who sent the money and the proof
 * of payment (a private upload, `paymentproofs`). It sends `POST /api/cart/checkout` (resources/orders.ts
 * `checkout`) and nothing about amounts: the server reads every price again.
 *
 * The rules are the server's own (`checkoutBody`, checked here before sending, with the same texts).
 * One `Idempotency-Key` is kept per attempt until an order is placed: sending again after a lost answer
 * (a timeout, a closed connection) gives the same orders, never a second purchase.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  LinearProgress,
  Paper,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import UploadIcon from '@mui/icons-material/Upload';
import { HttpError, Link } from 'react-admin';
import { checkoutBody, CHECKOUT_MESSAGES, orders } from '../../../resources/orders.ts';
import { paymentMethods } from '../../../resources/payments.ts';
import { acceptOf } from '../../manifest/uploads.ts';
import { httpClient, send } from '../../client/providers/http.ts';
import { uploadFiles } from '../../client/providers/upload.ts';
import { listPath } from '../../client/providers/data.ts';
import { reloadCart } from '../cart/cart-store.ts';

export const CHECKOUT_TEXTS = {
  title: 'Checkout',
  methods: 'How you paid',
  noMethods: 'No payment method is available yet: the shop cannot take orders.',
  methodsFailed: 'The payment methods could not be read.',
  proof: 'Proof of payment',
  proofHelp: 'A photo or screenshot of the payment (an image).',
  uploading: 'Uploading the proof…',
  place: 'Place order',
  placing: 'Placing the order…',
  viewOrders: 'Your orders',
} as const;

type Address = { city: string; district: string; country: string; fulladdress: string };
type Method = { id: string; name: string; content?: string };
type Errors = Partial<Record<keyof Address | 'paymentmethod' | 'senderinfo' | 'senderfile' | 'form', string>>;

const PROOF = 'paymentproofs' as const;
const ADDRESS_FIELDS: readonly { name: keyof Address; label: string; multiline?: boolean }[] = [
  { name: 'country', label: 'Country' },
  { name: 'city', label: 'City' },
  { name: 'district', label: 'District' },
  { name: 'fulladdress', label: 'Full address', multiline: true },
];

/** A fresh key for one checkout attempt (random, without needing a secure context). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The first message per field of a zod failure or a 400's `errors` map. */
function errorsOf(issues: Record<string, unknown>): Errors {
  const out: Errors = {};
  for (const [path, value] of Object.entries(issues)) {
    const key = (path.split('.').pop() ?? path) as keyof Errors;
    const message = Array.isArray(value) ? value[0] : value;
    if (typeof message === 'string' && !out[key]) out[key] = message;
  }
  return out;
}

/** The admin's payment methods, as the buyer may read them. */
function useMethods() {
  const [state, setState] = useState<{ loading: boolean; methods: Method[]; error?: string }>({ loading: true, methods: [] });
  useEffect(() => {
    const controller = new AbortController();
    httpClient(`/${listPath(paymentMethods)}?${new URLSearchParams({ range: '[0,99]', sort: '["name","ASC"]' })}`, { signal: controller.signal })
      .then(({ json }) => setState({ loading: false, methods: Array.isArray(json) ? (json as Method[]) : [] }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setState({ loading: false, methods: [], error: e instanceof Error && e.message ? e.message : CHECKOUT_TEXTS.methodsFailed });
      });
    return () => controller.abort();
  }, []);
  return state;
}

/** What a placed checkout answered, as the cart page tells it. */
export interface Placed {
  orderId: string;
  total: string;
}

/** The success the cart page shows once the order is placed (the cart is empty then, the form gone). */
export function PlacedAlert({ placed }: { placed: Placed }) {
  return (
    <Alert severity="success" action={<Button component={Link} to={`/${orders.name}`}>{CHECKOUT_TEXTS.viewOrders}</Button>}>
      {CHECKOUT_MESSAGES.success} Order {placed.orderId}, total {placed.total}.
    </Alert>
  );
}

export function CheckoutForm({ onPlaced }: { onPlaced: (placed: Placed) => void }) {
  const { loading, methods, error: methodsError } = useMethods();
  const [address, setAddress] = useState<Address>({ city: '', district: '', country: '', fulladdress: '' });
  const [method, setMethod] = useState('');
  const [senderinfo, setSenderinfo] = useState('');
  const [proof, setProof] = useState<{ name: string; url: string } | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  const [errors, setErrors] = useState<Errors>({});
  const [placing, setPlacing] = useState(false);
  const key = useRef(newKey());
  const methodsLabel = useId();
  const chosen = methods.find((m) => m.id === method);

  const pickProof = async (file: File | undefined) => {
    if (!file) return;
    setErrors((e) => ({ ...e, senderfile: undefined }));
    setProgress(0);
    try {
      const [url] = await uploadFiles(PROOF, [file], setProgress);
      setProof({ name: file.name, url });
    } catch (e) {
      setErrors((x) => ({ ...x, senderfile: e instanceof Error ? e.message : String(e) }));
    } finally {
      setProgress(undefined);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { address, paymentmethod: method, senderinfo, senderfile: proof?.url ?? '' };
    const checked = checkoutBody.safeParse(body);
    if (!checked.success) {
      setErrors(errorsOf(Object.fromEntries(checked.error.issues.map((i) => [i.path.join('.'), i.message]))));
      return;
    }
    setErrors({});
    setPlacing(true);
    try {
      const { json } = await send(orders.operations.checkout.call, {}, checked.data, { 'Idempotency-Key': key.current });
      key.current = newKey();
      onPlaced({ orderId: String(json.orderId), total: String(json.total) });
      await reloadCart();
    } catch (e) {
      const answer = e instanceof HttpError ? (e.body as { message?: string; errors?: Record<string, unknown> } | undefined) : undefined;
      const fields = answer?.errors ? errorsOf(answer.errors) : {};
      setErrors({ ...fields, form: answer?.message ?? (e instanceof Error ? e.message : String(e)) });
      // A 409 (out of stock) or 400 (no longer for sale, empty) changed what the cart holds: read it again.
      if (e instanceof HttpError && (e.status === 409 || e.status === 400)) await reloadCart();
    } finally {
      setPlacing(false);
    }
  };

  const text = (name: keyof Address, label: string, multiline?: boolean) => (
    <TextField
      key={name}
      name={name}
      label={label}
      required
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
      value={address[name]}
      onChange={(e) => setAddress((a) => ({ ...a, [name]: e.target.value }))}
      error={!!errors[name]}
      helperText={errors[name]}
      autoComplete={name === 'country' ? 'country-name' : name === 'city' ? 'address-level2' : name === 'fulladdress' ? 'street-address' : 'off'}
    />
  );

  return (
    <Paper component="section" aria-labelledby="checkout-title" sx={{ p: 2 }}>
      <Typography id="checkout-title" component="h2" variant="h6" gutterBottom>
        {CHECKOUT_TEXTS.title}
      </Typography>
      <Box component="form" noValidate onSubmit={submit} aria-busy={placing} sx={{ display: 'grid', gap: 2 }}>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' } }}>
          {ADDRESS_FIELDS.filter((f) => !f.multiline).map((f) => text(f.name, f.label))}
        </Box>
        {ADDRESS_FIELDS.filter((f) => f.multiline).map((f) => text(f.name, f.label, true))}

        <FormControl error={!!errors.paymentmethod} required>
          <FormLabel id={methodsLabel}>{CHECKOUT_TEXTS.methods}</FormLabel>
          {loading ? (
            <LinearProgress aria-label="Loading the payment methods" />
          ) : methodsError ? (
            <Alert severity="error">{methodsError}</Alert>
          ) : !methods.length ? (
            <Alert severity="warning">{CHECKOUT_TEXTS.noMethods}</Alert>
          ) : (
            <RadioGroup aria-labelledby={methodsLabel} name="paymentmethod" value={method} onChange={(e) => setMethod(e.target.value)}>
              {methods.map((m) => (
                <FormControlLabel key={m.id} value={m.id} control={<Radio />} label={m.name} />
              ))}
            </RadioGroup>
          )}
          {errors.paymentmethod && <FormHelperText>{errors.paymentmethod}</FormHelperText>}
        </FormControl>
        {chosen?.content && (
          <Alert severity="info" icon={false} aria-label={`How to pay by ${chosen.name}`}>
            {/* Plain text: the admin's instructions are never read as HTML here. */}
            <Typography component="div" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {chosen.content}
            </Typography>
          </Alert>
        )}

        <TextField
          name="senderinfo"
          label="Sender info"
          required
          multiline
          minRows={2}
          value={senderinfo}
          onChange={(e) => setSenderinfo(e.target.value)}
          error={!!errors.senderinfo}
          helperText={errors.senderinfo ?? 'Who paid and how to find the payment: the number or account it came from, the transaction id.'}
        />

        <FormControl error={!!errors.senderfile} required>
          <FormLabel>{CHECKOUT_TEXTS.proof}</FormLabel>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', mt: 1 }}>
            <Button component="label" variant="outlined" startIcon={<UploadIcon />} disabled={progress !== undefined}>
              {proof ? 'Replace the proof' : 'Choose a file'}
              <input hidden type="file" name="senderfile" accept={acceptOf(PROOF)} onChange={(e) => void pickProof(e.target.files?.[0])} />
            </Button>
            {proof && <Typography variant="body2">{proof.name}</Typography>}
          </Stack>
          {progress !== undefined && <LinearProgress variant="determinate" value={Math.round(progress * 100)} aria-label={CHECKOUT_TEXTS.uploading} sx={{ mt: 1 }} />}
          <FormHelperText>{errors.senderfile ?? CHECKOUT_TEXTS.proofHelp}</FormHelperText>
        </FormControl>

        {errors.form && <Alert severity="error">{errors.form}</Alert>}
        {placing && <LinearProgress aria-label={CHECKOUT_TEXTS.placing} />}
        <Button type="submit" variant="contained" disabled={placing || progress !== undefined || !methods.length} sx={{ justifySelf: 'end' }}>
          {CHECKOUT_TEXTS.place}
        </Button>
      </Box>
    </Paper>
  );
}

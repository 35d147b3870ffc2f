/**
 * The product commission dialog (spec §4, §5; hand-written, docs/architecture.md): the seller price, the five
 * percentages with each commission price shown live, the main sell price, the current status with the
 * reject reason when REJECTED, and the admin's decision: approve (`CreateProductCommissionInQueryMessage`'s call) or
 * reject with a typed reason (`rejectCommission`'s call). Opened by either type or
 * by `commissionDetails`; opened as details it is read-only for everyone (issue 51: Details never edit;
 * an admin decides from the row's Edit, which is `CreateProductCommissionInQueryMessage`).
 *
 * Rules, calls and messages are the manifest's (resources/products.ts): the body is judged by the same
 * rules as on the server before it is sent, and the server's messages land under the same fields.
 * Inputs carry RJSF's ids (`root_<field>`), as every generated form's do.
 */
import { mayCall } from '../../manifest/index.ts';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  DialogActions,
  DialogContent,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { RecordContextProvider, usePermissions, useRefresh } from 'react-admin';
import { ChoiceField } from '../../client/generate/displays.tsx';
import { COMMISSION_FIELDS, type CommissionField } from '../../domain/commission.ts';
import { formatMoney } from '../../domain/money.ts';
import { labelOf, type DialogDef, type FieldDef } from '../../manifest/index.ts';
import { useRegistry } from '../../client/registry/context.tsx';
import type { DialogBodyProps } from '../../client/dialogs/context.ts';
import { useDialogs } from '../../client/dialogs/context.ts';
import { CloseActions, DialogButtons } from '../../client/dialogs/DialogButtons.tsx';
import { conflictOf, ifMatchFor } from '../../client/dialogs/conflict.tsx';
import { answerOf, failureToast, fieldErrorsOf, successToast } from '../../client/dialogs/outcome.ts';
import { send } from '../../client/providers/http.ts';
import { useToast } from '../../client/shell/toast.tsx';
import {
  DEFAULTS_TYPE,
  declaredDecisions,
  initialForm,
  isChanged,
  previewOf,
  submission,
  type CommissionForm,
  type Decision,
} from './form.ts';

type Data = Record<string, unknown>;
type Errors = Record<string, string[]>;

/** The two declared decisions and the products' fields they show, from the registry the app was given. */
function useCommissionParts() {
  const registry = useRegistry();
  return useMemo(() => {
    const decisions = declaredDecisions(registry);
    const products = decisions.approve.resource;
    const fieldOf = (name: string): FieldDef => products.fields.find((f) => f.name === name)!;
    return { registry, decisions, products, fieldOf, statusField: fieldOf('comissionStatus') };
  }, [registry]);
}
const money = (text: unknown) => (text === '' || text === undefined || text === null ? '—' : formatMoney(text as string));

/** The first message of a field, for its helper text. */
const first = (errors: Errors, name: string) => errors[name]?.[0];

/** The status as every list shows it: the field's choice as a chip. */
function StatusChip({ record }: { record: Data }) {
  const { statusField } = useCommissionParts();
  return (
    <RecordContextProvider value={record}>
      <ChoiceField source={statusField.name} choices={statusField.choices ?? []} emptyText="—" />
    </RecordContextProvider>
  );
}

export default function CommissionDialog({ dialog, data, onClose, onCancel = onClose, onDirty }: DialogBodyProps<DialogDef>) {
  const toast = useToast();
  const refresh = useRefresh();
  const { openDialog } = useDialogs();
  const { permissions } = usePermissions();
  const { registry, decisions, products, fieldOf, statusField } = useCommissionParts();
  const [record, setRecord] = useState<Data>(() => ({ ...data }));
  // Opened as one of the two decisions (the host opened it, so the role may), it decides; opened as
  // details, everyone reads: a dialog called Details offers no Save.
  const canDecide = dialog.kind !== 'details';
  const mayEditDefaults = mayCall(permissions, registry.resource('siteCommissions'), { dialog: registry.dialog(DEFAULTS_TYPE)!.dialog });
  const [initial] = useState<CommissionForm>(() => initialForm(record, dialog, decisions));
  const [form, setForm] = useState<CommissionForm>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [conflict, setConflict] = useState<string>();
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const preview = useMemo(() => previewOf(record, form), [record, form]);

  useEffect(() => onDirty?.(isChanged(initial, form)), [initial, form, onDirty]);

  const change = (next: Partial<CommissionForm>, touched: string) => {
    setForm((f) => ({ ...f, ...next }));
    // A message describes the value it was given; once the value changes it is stale.
    setErrors(({ [touched]: _gone, ...rest }) => rest);
  };
  const setPercent = (field: CommissionField, text: string) => change({ percents: { ...form.percents, [field]: text } }, field);

  /** Shows the messages under their fields and focuses the first field that has one. */
  function showErrors(found: Errors) {
    // A price that cannot be computed is the percentages' fault: their messages say why.
    if (found.price && COMMISSION_FIELDS.some((f) => found[f]) && !found.price.some((m) => /must be \d/.test(m))) delete found.price;
    setErrors(found);
    const order = ['sellerprice', ...COMMISSION_FIELDS, 'price', 'decision', 'message'];
    const firstBad = order.find((name) => found[name]);
    if (firstBad) requestAnimationFrame(() => document.getElementById(firstBad === 'decision' ? 'root_decision_APPROVED' : `root_${firstBad}`)?.focus());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (running.current) return;
    const planned = submission(record, form, decisions);
    if (!planned.ok) return showErrors(planned.errors);
    const { dialog: texts } = planned.declared;
    running.current = true;
    setBusy(true);
    try {
      await send(texts.call, record, planned.body, ifMatchFor(record));
      toast(successToast(texts.success));
      onClose();
      refresh();
    } catch (error) {
      const stale = conflictOf(error);
      if (stale) {
        // Nothing was written: the product as it is now stands in, and the next Save is made against it.
        setRecord(stale.current);
        setConflict(stale.message);
        return;
      }
      toast(failureToast(texts.failure, error, products.fields));
      showErrors({ ...(fieldErrorsOf(answerOf(error)) ?? {}) });
    } finally {
      running.current = false;
      setBusy(false);
    }
  }

  async function openDefaults() {
    try {
      const read = registry.resource('siteCommissions').operations.read;
      const { json } = await send(read.call, {});
      openDialog(DEFAULTS_TYPE, json as Data);
    } catch (error) {
      toast(failureToast('Unable to load site commission!', error));
    }
  }

  const status = record.comissionStatus;
  const editable = canDecide && !busy;
  return (
    // A column, so the fields scroll and the actions stay in view on a short screen.
    <Box component="form" noValidate onSubmit={(e: FormEvent) => void submit(e)} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
      <DialogContent>
        <Stack spacing={2}>
          {conflict && (
            <Alert severity="warning">
              {conflict} The dialog now shows the product as it is; Save again to decide on it.
            </Alert>
          )}
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="p" variant="subtitle1" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
              {String(record.name ?? '')}
            </Typography>
            <Typography component="span" variant="body2" color="text.secondary">
              {labelOf(statusField)}:
            </Typography>
            <StatusChip record={record} />
          </Stack>
          {status === 'REJECTED' && (
            // A note, not an alert: it is the record's content, read with the rest, not news to announce.
            <Alert severity="error" role="note">
              {labelOf(fieldOf('commissionRejectReason'))}: {String(record.commissionRejectReason ?? '')}
            </Alert>
          )}
          <TextField
            id="root_sellerprice"
            label={labelOf(fieldOf('sellerprice'))}
            value={money(record.sellerprice)}
            slotProps={{ input: { readOnly: true } }}
            error={!!errors.sellerprice}
            helperText={first(errors, 'sellerprice') ?? 'Set by the seller'}
            size="small"
          />
          {COMMISSION_FIELDS.map((name, i) => (
            <TextField
              key={name}
              id={`root_${name}`}
              label={`${labelOf(fieldOf(name))} (%)`}
              value={form.percents[name]}
              onChange={(e) => setPercent(name, e.target.value)}
              autoFocus={editable && i === 0}
              required={canDecide}
              error={!!errors[name]}
              helperText={first(errors, name) ?? `Commission: ${money(preview[name])}`}
              slotProps={{ input: { readOnly: !editable }, htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
              size="small"
            />
          ))}
          <TextField
            id="root_price"
            label="Main sell price"
            value={money(preview.price)}
            slotProps={{ input: { readOnly: true } }}
            error={!!errors.price}
            helperText={first(errors, 'price') ?? 'Seller price plus the five commissions'}
            size="small"
          />
          {canDecide && (
            <FormControl error={!!errors.decision}>
              <FormLabel id="commission-decision-label">Decision</FormLabel>
              <RadioGroup
                row
                aria-labelledby="commission-decision-label"
                name="decision"
                value={form.decision}
                onChange={(e) => change({ decision: e.target.value as Decision }, 'decision')}
              >
                <FormControlLabel value="APPROVED" control={<Radio id="root_decision_APPROVED" />} label="Approve" disabled={busy} />
                <FormControlLabel value="REJECTED" control={<Radio id="root_decision_REJECTED" />} label="Reject" disabled={busy} />
              </RadioGroup>
              {errors.decision && <FormHelperText>{first(errors, 'decision')}</FormHelperText>}
            </FormControl>
          )}
          {canDecide && form.decision === 'REJECTED' && (
            <TextField
              id="root_message"
              label="Reject reason"
              value={form.message}
              onChange={(e) => change({ message: e.target.value }, 'message')}
              required
              multiline
              minRows={3}
              error={!!errors.message}
              helperText={first(errors, 'message') ?? 'The seller reads this reason.'}
              slotProps={{ input: { readOnly: busy } }}
            />
          )}
        </Stack>
      </DialogContent>
      {canDecide ? (
        <DialogActions>
          {mayEditDefaults && (
            <Button onClick={() => void openDefaults()} disabled={busy} sx={{ mr: 'auto' }}>
              Site commission
            </Button>
          )}
          <DialogButtons busy={busy} onCancel={onCancel} busyLabel="Saving">
            Save
          </DialogButtons>
        </DialogActions>
      ) : (
        <CloseActions onClose={onClose} />
      )}
    </Box>
  );
}

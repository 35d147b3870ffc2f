/**
 * `list.toggle`: a boolean field switched right in its row. The switch sends the resource's update
 * dialog that picks the field, with the record's picked fields as that dialog would send them and the
 * flipped value (spec §7: `PUT /home-sections/{id}` both edits and switches isActive), then refreshes.
 */
import { mayCall } from './access.ts';
import { useEffect, useState } from 'react';
import { Switch } from '@mui/material';
import { useRecordContext, useRefresh } from 'react-admin';
import {
  bodySchema,
  pickedFields,
  type DialogDef,
  type ResourceDef,
  type UpdateDialog,
} from '../../manifest/index.ts';
import { failureToast } from '../dialogs/outcome.ts';
import { send } from '../providers/http.ts';
import { useToast } from '../shell/toast.tsx';
import type { ColumnProps } from './displays.tsx';

/** The update dialog that picks `field` and that `role` may send, if any. */
export function toggleDialog(resource: ResourceDef, field: string, role: unknown): UpdateDialog | undefined {
  const found = Object.values(resource.dialogs).find(
    (d: DialogDef): d is UpdateDialog => d.kind === 'update' && d.pick.includes(field) && mayCall(role, resource, { dialog: d }),
  );
  return found;
}

const isOn = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

/**
 * What the update dialog would send for `record` with `field` set to `value`: each picked field
 * as the record holds it (a nested parent as its id, text fields as text, absent ones as the list
 * shows them or left out), through the dialog's rule when it accepts them (trimmed, as a form sends).
 */
export function toggleBody(resource: ResourceDef, dialog: UpdateDialog, record: Record<string, unknown>, field: string, value: boolean) {
  const out: Record<string, unknown> = {};
  for (const f of pickedFields(resource, dialog)) {
    let v = f.name === field ? value : record[f.name];
    if (v && typeof v === 'object' && 'id' in v) v = (v as { id: unknown }).id;
    if (v === undefined || v === null) v = f.emptyShownAs;
    if (v === undefined || v === null) continue;
    if (f.kind === 'boolean') v = isOn(v);
    else if (f.kind !== 'number' && typeof v === 'number') v = String(v);
    if (dialog.wire?.[f.name] === 'option') v = { label: String(v), value: v };
    out[f.name] = v;
  }
  const parsed = bodySchema(resource, dialog).safeParse(out);
  return parsed.success ? (parsed.data as Record<string, unknown>) : out;
}

interface ToggleFieldProps extends ColumnProps {
  resource: ResourceDef;
  dialog: UpdateDialog;
}

export function ToggleField({ source, label, resource, dialog }: ToggleFieldProps) {
  const record = useRecordContext();
  const refresh = useRefresh();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  // The value just sent, shown until the list answers with it.
  const [pending, setPending] = useState<boolean | null>(null);
  const current = isOn(record?.[source]);
  useEffect(() => setPending(null), [current]);
  if (!record) return null;
  const title = record[resource.title];
  const name = `${label ?? source} ${title === undefined || title === null ? record.id : String(title)}`;

  async function flip() {
    if (busy || !record) return;
    const next = !(pending ?? current);
    setBusy(true);
    setPending(next);
    try {
      await send(dialog.call, { ...record }, toggleBody(resource, dialog, record, source, next));
      refresh();
    } catch (error) {
      setPending(null);
      toast(failureToast(dialog.failure, error, pickedFields(resource, dialog)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Switch
      size="small"
      checked={pending ?? current}
      disabled={busy}
      onChange={() => void flip()}
      onClick={(e) => e.stopPropagation()}
      slotProps={{ input: { 'aria-label': name } }}
    />
  );
}

/**
 * `defaultRecord`: a site setting naming one record as the default (spec §7 currencies:
 * `GET /currencies/settings` answers `{ id, record }`, `PUT /currencies/settings` takes `{ id }`).
 * The list marks that record with a 'Default' chip and offers 'Make default' on the others.
 */
import { useState } from 'react';
import { Chip, IconButton } from '@mui/material';
import { RowTooltip } from '../widgets/RowTooltip.tsx';
import StarIcon from '@mui/icons-material/Star';
import { useQuery } from '@tanstack/react-query';
import { usePermissions, useRecordContext, useRefresh, type Identifier } from 'react-admin';
import type { ResourceDef } from '../../manifest/index.ts';
import { failureToast, successToast } from '../dialogs/outcome.ts';
import { send } from '../providers/http.ts';
import { useToast } from '../shell/toast.tsx';
import { mayCall } from './access.ts';
import { inSentence } from '../dialogs/titles.ts';

/** The id the setting names (null when none), read while the role may read the resource. */
export function useDefaultRecordId(resource: ResourceDef) {
  const def = resource.defaultRecord;
  const { permissions } = usePermissions();
  // Under the resource's name, so react-admin's refresh (which invalidates every query) reads it again.
  return useQuery({
    queryKey: [resource.name, 'defaultRecord'],
    queryFn: async (): Promise<Identifier | null> => {
      const { json } = await send(def!.read, {});
      const id = (json as { id?: unknown } | null)?.id;
      return typeof id === 'string' || typeof id === 'number' ? id : null;
    },
    enabled: !!def && mayCall(permissions, resource, 'read'),
  });
}

/** Whether `role` may name another default. */
export const mayChangeDefault = (resource: ResourceDef, role: unknown) =>
  !!resource.defaultRecord && mayCall(role, resource, { defaultRecord: resource.defaultRecord, write: true });

/** The list column that marks the default record. */
export function DefaultMark({ resource }: { label: string; resource: ResourceDef }) {
  const record = useRecordContext();
  const { data } = useDefaultRecordId(resource);
  if (!record || data === undefined || data === null || String(record.id) !== String(data)) return null;
  return <Chip size="small" color="primary" label="Default" />;
}

/** A record's value against a declared one, compared as text (a filter or an engine may answer '1' for 1). */
const sameValue = (value: unknown, wanted: unknown) =>
  value !== null && value !== undefined && String(value) === String(wanted);

/** The row action that makes the row's record the default. */
export function MakeDefaultButton({ resource }: { resource: ResourceDef }) {
  const record = useRecordContext();
  const { data, isSuccess, refetch } = useDefaultRecordId(resource);
  const refresh = useRefresh();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const def = resource.defaultRecord;
  if (!def || !record || !isSuccess || (data !== null && String(record.id) === String(data))) return null;
  // A record that may not be the default (an inactive currency) is not offered: the server would refuse.
  if (def.requires && !sameValue(record[def.requires.field], def.requires.value)) return null;
  const what = inSentence(resource.label);

  async function makeDefault() {
    if (!record) return;
    setBusy(true);
    try {
      await send(def!.write, {}, { id: record.id });
      toast(successToast(`Default ${what} updated.`));
      await refetch();
      refresh();
    } catch (error) {
      toast(failureToast(`Unable to update default ${what}!`, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <RowTooltip title="Make default">
      <span>
        <IconButton size="small" aria-label="Make default" disabled={busy} onClick={() => void makeDefault()}>
          <StarIcon fontSize="small" />
        </IconButton>
      </span>
    </RowTooltip>
  );
}

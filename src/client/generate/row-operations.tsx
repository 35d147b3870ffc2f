/**
 * Operations declared with `row`: a button on each row that sends the operation's call with the
 * row's `{id}` and no body (the recycle bin's Restore), toasts its success or failure, refreshes.
 */
import { useState } from 'react';
import { IconButton } from '@mui/material';
import { RowTooltip } from '../widgets/RowTooltip.tsx';
import { useRecordContext, useRefresh } from 'react-admin';
import type { OperationDef, ResourceDef } from '../../manifest/index.ts';
import { failureToast, successToast } from '../dialogs/outcome.ts';
import { send } from '../providers/http.ts';
import { useToast } from '../shell/toast.tsx';
import { mayCall } from './access.ts';
import { iconFor } from './icons.ts';

export type RowOperation = OperationDef & { row: NonNullable<OperationDef['row']> };

/** The row operations `role` may call, in declaration order. */
export function rowOperations(resource: ResourceDef, role: unknown): RowOperation[] {
  return Object.values(resource.operations).filter(
    (op): op is RowOperation => !!op.row && mayCall(role, resource, { operation: op }),
  );
}

export function OperationButton({ operation }: { operation: RowOperation }) {
  const record = useRecordContext();
  const refresh = useRefresh();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const { row } = operation;
  const Icon = iconFor(row.icon);

  async function run() {
    if (!record) return;
    setBusy(true);
    try {
      await send(operation.call, { ...record });
      toast(successToast(row.success));
      refresh();
    } catch (error) {
      toast(failureToast(row.failure, error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <RowTooltip title={row.label}>
      <span>
        <IconButton size="small" aria-label={row.label} disabled={busy} onClick={() => void run()}>
          <Icon fontSize="small" />
        </IconButton>
      </span>
    </RowTooltip>
  );
}

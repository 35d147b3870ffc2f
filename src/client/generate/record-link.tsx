/**
 * A notification's link (`display: 'recordLink'`): the record its metadata names (`resource` and
 * `recordId`, set when an event notified), read as the resource's label and the record's title
 * ('Product: Blue Kettle') and linked to the record's own dialog, as a reference is. Nothing when the
 * metadata names no record (an admin's message); the label alone when the role may not go there.
 */
import { Stack, Typography } from '@mui/material';
import { RecordContextProvider, useRecordContext } from 'react-admin';
import { useRegistry } from '../registry/context.tsx';
import type { ColumnProps } from './displays.tsx';
import { ReferenceLinkField } from './reference-link.tsx';
import { mayList } from './access.ts';
import { useSignedIn, withSignedIn } from './signed-in.tsx';

/** The record a metadata text names, or undefined. */
export function linkedRecord(text: unknown): { resource: string; recordId: string } | undefined {
  if (typeof text !== 'string' || !text) return undefined;
  try {
    const parsed = JSON.parse(text) as { resource?: unknown; recordId?: unknown };
    if (typeof parsed?.resource === 'string' && typeof parsed.recordId === 'string' && parsed.recordId)
      return { resource: parsed.resource, recordId: parsed.recordId };
  } catch {
    // Damaged metadata links nowhere.
  }
  return undefined;
}

/** Who is signed in is the list's, where it is in one (signed-in.tsx). */
export const RecordLinkField = withSignedIn(function RecordLinkField({ source, emptyText }: ColumnProps) {
  const record = useRecordContext();
  const { role: permissions } = useSignedIn();
  const registry = useRegistry();
  const linked = linkedRecord(record?.[source]);
  const target = linked && registry.resources.find((r) => r.name === linked.resource);
  if (!linked || !target)
    return emptyText ? (
      <Typography component="span" variant="body2">
        {emptyText}
      </Typography>
    ) : null;
  return (
    <Stack direction="row" spacing={0.5} component="span" sx={{ alignItems: 'baseline' }}>
      <Typography component="span" variant="body2">
        {target.label}:
      </Typography>
      {mayList(target, permissions) ? (
        <RecordContextProvider value={{ id: linked.recordId, recordId: linked.recordId }}>
          {/* A record since deleted still names itself: by its id. */}
          <ReferenceLinkField source="recordId" target={target} emptyText={linked.recordId} />
        </RecordContextProvider>
      ) : (
        <Typography component="span" variant="body2">
          {linked.recordId}
        </Typography>
      )}
    </Stack>
  );
});

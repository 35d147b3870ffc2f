/**
 * A record's History: the audit log's list screen, filtered to the record (docs/architecture.md: "Every write
 * appends an audit entry"). Offered on every row of every other resource to whoever may read the log.
 */
import { RowTooltip } from '../widgets/RowTooltip.tsx';
import { RowIconButton } from '../widgets/RowIconButton.tsx';
import HistoryIcon from '@mui/icons-material/History';
import { useCreatePath, useNavigate, useRecordContext } from 'react-admin';
import type { Registry, ResourceDef } from '../../manifest/index.ts';
import { AUDIT_LOG } from '../../../resources/system.ts';
import { mayList } from './access.ts';

/** Whether `role` gets a History action on the rows of `resource`. */
export function offersHistory(registry: Registry, resource: ResourceDef, role: unknown): boolean {
  return resource.name !== AUDIT_LOG && mayList(registry.resource(AUDIT_LOG), role);
}

export function HistoryButton({ resource }: { resource: ResourceDef }) {
  const record = useRecordContext();
  const navigate = useNavigate();
  const createPath = useCreatePath();
  if (!record) return null;
  const filter = JSON.stringify({ resource: resource.name, recordId: String(record.id) });
  const open = () => navigate(`${createPath({ resource: AUDIT_LOG, type: 'list' })}?filter=${encodeURIComponent(filter)}`);
  return (
    <RowTooltip title="History">
      <RowIconButton label="History" icon={HistoryIcon} onClick={open} />
    </RowTooltip>
  );
}

/**
 * The actions column of a list row: Details, Edit and Delete open the resource's dialogs, and a
 * "More actions" menu the row's other dialogs (list-dialogs.ts says which), then the state transitions
 * the row's state allows the role (transitions.tsx); more may come first.
 */
import { useId, useState, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { Box, IconButton, ListItemText, Menu, MenuItem } from '@mui/material';
import { RowTooltip } from '../widgets/RowTooltip.tsx';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useRecordContext, type RaRecord } from 'react-admin';
import { useOpenDialog } from '../dialogs/context.ts';
import { rowDialogData, type Offered } from './list-dialogs.ts';
import { useTransitions } from './transitions.tsx';
import { useMayOnRow } from './row-access.ts';

/** The accessible name of the row's menu button. */
export const MORE_ACTIONS = 'More actions';

/**
 * The actions column's name among the row's cells. react-admin keys a row's cells by their `source`, or
 * else by their place: a column left out to fit (fit-columns.ts), as when a search leaves fewer rows or the
 * window narrows, moved this cell's place and drew it anew, closing a "More actions" menu open meanwhile.
 * No manifest field can be named so.
 */
export const ROW_ACTIONS_COLUMN = '@actions';

interface RowActionsProps {
  /** Read by Datagrid for the column header. */
  label: string;
  textAlign: 'right';
  /** The cell's key in its row: the same whatever columns stand before it. */
  source: typeof ROW_ACTIONS_COLUMN;
  /** Nothing to sort by: without it a `source` would make the header a sort button. */
  sortable: false;
  /** The list's resource name: a dialog of another resource is opened with the row's id alone. */
  resource: string;
  edit?: Offered;
  remove?: Offered;
  details?: Offered;
  /** The row's other dialogs, in its "More actions" menu. */
  more?: Offered[];
  /** Row actions of the list's behaviours (operations, Make default), before the dialogs'. */
  children?: ReactNode;
}

/** One entry of the "More actions" menu. */
interface MenuAction {
  key: string;
  label: string;
  run: () => void;
}

/**
 * The row's "More actions" button and its menu of dialog titles and transitions. The menu is drawn
 * from its first opening on: closed, MUI's menu is still a popover and a modal drawn in every row at
 * every new page (issue 51.10).
 */
function MoreActions({ offered }: { offered: MenuAction[] }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [used, setUsed] = useState(false);
  const menuId = useId();
  const close = () => setAnchor(null);
  return (
    <>
      <RowTooltip title={MORE_ACTIONS}>
        <IconButton
          size="small"
          aria-label={MORE_ACTIONS}
          aria-haspopup="menu"
          aria-controls={anchor ? menuId : undefined}
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(e) => {
            setUsed(true);
            setAnchor(e.currentTarget);
          }}
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </RowTooltip>
      {used && (
        <Menu
          id={menuId}
          anchorEl={anchor}
          open={!!anchor}
          onClose={close}
          // Drawn in the row, not in a portal at the page's end: there it would be outside every landmark (axe).
          disablePortal
          // Its clicks go up through the row, whose click opens the record: a choice (or a click beside the
          // menu to close it) must not do that too.
          onClick={(e: MouseEvent) => e.stopPropagation()}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          {offered.map((o) => (
            <MenuItem
              key={o.key}
              onClick={() => {
                close();
                o.run();
              }}
            >
              <ListItemText>{o.label}</ListItemText>
            </MenuItem>
          ))}
        </Menu>
      )}
    </>
  );
}

export function RowActions({ resource, edit, remove, details, more = [], children }: RowActionsProps) {
  const record = useRecordContext();
  const openDialog = useOpenDialog();
  const transitions = useTransitions(resource, record);
  const mayOnRow = useMayOnRow();
  if (!record) return null;
  const open = (o: Offered) => openDialog(o.type, rowDialogData(o, resource, record as RaRecord));
  // Only what the server will allow on this record (its owner too, not only the role): another owner's row offers no Edit or Delete.
  const allowed = (o: Offered | undefined) => (o && mayOnRow(o, resource, record) ? o : undefined);
  const menu: MenuAction[] = [
    ...more.filter((o) => allowed(o)).map((o) => ({ key: o.type, label: o.label, run: () => open(o) })),
    ...transitions.offered.map((o) => ({ key: `transition:${o.transition.name}`, label: o.transition.label, run: () => transitions.choose(o) })),
  ];
  const action = (found: Offered | undefined, label: string, icon: ReactElement, color?: 'error') =>
    found && (
      <RowTooltip title={label}>
        <IconButton size="small" aria-label={label} color={color} onClick={() => open(found)}>
          {icon}
        </IconButton>
      </RowTooltip>
    );
  return (
    <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', whiteSpace: 'nowrap' }}>
      {children}
      {action(allowed(details), 'Details', <VisibilityIcon fontSize="small" />)}
      {action(allowed(edit), 'Edit', <EditIcon fontSize="small" />)}
      {menu.length > 0 && <MoreActions offered={menu} />}
      {action(allowed(remove), 'Delete', <DeleteIcon fontSize="small" />, 'error')}
      {transitions.form}
    </Box>
  );
}

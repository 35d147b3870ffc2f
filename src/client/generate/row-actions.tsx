/**
 * The actions column of a list row: Details, Edit and Delete open the resource's dialogs, and a
 * "More actions" menu the row's other dialogs (list-dialogs.ts says which), then the state transitions
 * the row's state allows the role (transitions.tsx); more may come first.
 */
import { useId, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { ListItemText, Menu, MenuItem } from '@mui/material';
import type { SvgIconComponent } from '@mui/icons-material';
import { RowTooltip } from '../widgets/RowTooltip.tsx';
import { RowIconButton } from '../widgets/RowIconButton.tsx';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useRecordContext, type RaRecord } from 'react-admin';
import { useOpenDialog } from '../dialogs/context.ts';
import { rowDialogData, type Offered } from './list-dialogs.ts';
import { useTransitions } from './transitions.tsx';
import { useMayOnRow } from './row-access.ts';
import { rowMenuKey, useRowMenu } from './row-menu.ts';

/** The actions' box: in a line, at the right. */
const ROW_ACTIONS_STYLE = { display: 'flex', justifyContent: 'flex-end', alignItems: 'center', whiteSpace: 'nowrap' } as const;

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
 * every new page (issue 51.10). Whether it is open is kept by the record (row-menu.ts), not by the row:
 * rows are keyed by their place, and a search or a refresh that moves the record moves its open menu too.
 */
function MoreActions({ offered, menuKey }: { offered: MenuAction[]; menuKey: string }) {
  const menu = useRowMenu(menuKey);
  const button = useRef<HTMLButtonElement>(null);
  const [used, setUsed] = useState(false);
  const menuId = useId();
  return (
    <>
      <RowTooltip title={MORE_ACTIONS}>
        <RowIconButton
          ref={button}
          label={MORE_ACTIONS}
          icon={MoreVertIcon}
          aria-haspopup="menu"
          aria-controls={menu.isOpen ? menuId : undefined}
          aria-expanded={menu.isOpen ? 'true' : undefined}
          onClick={() => {
            setUsed(true);
            menu.open();
          }}
        />
      </RowTooltip>
      {(used || menu.isOpen) && (
        <Menu
          id={menuId}
          // Read when it is placed: a row that takes up an open menu draws it with its button.
          anchorEl={() => button.current!}
          open={menu.isOpen}
          onClose={menu.close}
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
                menu.close();
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

/** The row's actions, in a list screen: who is signed in is the list's (signed-in.tsx), asked by no row. */
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
  const action = (found: Offered | undefined, label: string, icon: SvgIconComponent, color?: 'error') =>
    found && (
      <RowTooltip title={label}>
        <RowIconButton label={label} icon={icon} color={color} onClick={() => open(found)} />
      </RowTooltip>
    );
  // (A plain box with MUI Box's looks: one a row, it was three components of its own.)
  return (
    <div className="row-actions" style={ROW_ACTIONS_STYLE}>
      {children}
      {action(allowed(details), 'Details', VisibilityIcon)}
      {action(allowed(edit), 'Edit', EditIcon)}
      {menu.length > 0 && <MoreActions offered={menu} menuKey={rowMenuKey(resource, record.id)} />}
      {action(allowed(remove), 'Delete', DeleteIcon, 'error')}
      {transitions.form}
    </div>
  );
}

/**
 * `list.reorder`: the rows of a page in the order of the reorder field, moved by dragging a row onto
 * another (native HTML5 drag and drop) or by the 'Move up' / 'Move down' buttons of the handle
 * column (or the arrow keys on the handle). The new order shows at once, is sent to the declared
 * call as `{ [key]: [{ id, [field]: n }] }` for every row of the page (n counts on from the page's
 * offset), then the list refreshes; a failure toasts and puts the old order back.
 */
import {
  createContext,
  forwardRef,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Box, IconButton } from '@mui/material';
import { RowTooltip } from '../widgets/RowTooltip.tsx';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import {
  Datagrid,
  DatagridBody,
  DatagridRow,
  useListContext,
  usePermissions,
  useRecordContext,
  useRefresh,
  type DatagridProps,
  type DatagridRowProps,
  type RaRecord,
} from 'react-admin';
import type { ListBehaviour, ResourceDef } from '../../manifest/index.ts';
import { failureToast } from '../dialogs/outcome.ts';
import { send } from '../providers/http.ts';
import { useToast } from '../shell/toast.tsx';
import { mayCall } from './access.ts';

type Reorder = NonNullable<ListBehaviour['reorder']>;

/**
 * Whether `role` may reorder the resource's rows: the reorder call is guarded by the resource's write
 * access (server `routes/reorder.ts`), so a role without it is never offered a grip or a button.
 */
export function mayReorder(resource: ResourceDef, role: unknown): boolean {
  return !!resource.list?.reorder && mayCall(role, resource, 'write');
}

/** The failure toast's title (its description is the server's answer). */
export const REORDER_FAILURE = 'Unable to reorder!';

interface ReorderApi {
  ids: string[];
  busy: boolean;
  dragged: string | null;
  over: string | null;
  /** The row whose handle should take the focus once it is drawn at its new place. */
  focus: { id: string; towards: 'up' | 'down' } | null;
  move: (from: number, to: number, focus?: 'up' | 'down') => void;
  /** Whether a row of this list is being dragged (not a file or another list's row). */
  isDragging: () => boolean;
  startDrag: (id: string) => void;
  dragOver: (id: string) => void;
  drop: (id: string) => void;
  endDrag: () => void;
  titleOf: (id: string) => string;
}

const ReorderContext = createContext<ReorderApi | null>(null);

const orderOf = (record: RaRecord, field: string) => {
  const n = Number(record[field]);
  return Number.isFinite(n) ? n : 0;
};

/** `list` with the item at `from` moved to `to`. */
export function arrayMove<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/** The body the reorder call takes: every row of the page numbered in its new order. */
export function reorderBody(reorder: Reorder, rows: readonly RaRecord[], offset = 0): Record<string, unknown> {
  return { [reorder.key]: rows.map((r, i) => ({ id: r.id, [reorder.field]: offset + i + 1 })) };
}

/** A Datagrid row that can be dragged and dropped onto. */
const ReorderRow = forwardRef<HTMLTableRowElement, DatagridRowProps>(function ReorderRow(props, ref) {
  const api = useContext(ReorderContext);
  const id = props.id === undefined ? '' : String(props.id);
  if (!api) return <DatagridRow ref={ref} {...props} />;
  const from = api.dragged === null ? -1 : api.ids.indexOf(api.dragged);
  const target = api.ids.indexOf(id);
  const marker =
    api.over === id && api.dragged !== id
      ? { boxShadow: (t: { palette: { primary: { main: string } } }) => `inset 0 ${from < target ? -2 : 2}px 0 ${t.palette.primary.main}` }
      : {};
  return (
    <DatagridRow
      ref={ref}
      {...props}
      draggable={!api.busy}
      data-reorder-id={id}
      onDragStart={(e: DragEvent<HTMLTableRowElement>) => {
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', id);
        api.startDrag(id);
      }}
      onDragOver={(e: DragEvent<HTMLTableRowElement>) => {
        if (!api.isDragging()) return; // something else is dragged over the list
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        api.dragOver(id);
      }}
      onDrop={(e: DragEvent<HTMLTableRowElement>) => {
        if (!api.isDragging()) return;
        e.preventDefault();
        api.drop(id);
      }}
      onDragEnd={() => api.endDrag()}
      sx={{ ...(props.sx as object), cursor: api.busy ? undefined : 'grab', opacity: api.dragged === id ? 0.5 : 1, ...marker }}
    />
  );
});

/** The handle column: a drag grip and the keyboard's way, 'Move up' / 'Move down'. */
export function ReorderHandle(_: { label: string; sortable: false }) {
  const record = useRecordContext();
  const api = useContext(ReorderContext);
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const id = record ? String(record.id) : '';
  const index = api ? api.ids.indexOf(id) : -1;
  const last = api ? api.ids.length - 1 : -1;
  const focus = api?.focus;
  useEffect(() => {
    if (!focus || focus.id !== id) return;
    const wanted = focus.towards === 'up' ? up.current : down.current;
    const other = focus.towards === 'up' ? down.current : up.current;
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [focus, id, index]);
  if (!api || !record || index < 0) return null;
  const title = api.titleOf(id);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowUp' && index > 0) api.move(index, index - 1, 'up');
    else if (e.key === 'ArrowDown' && index < last) api.move(index, index + 1, 'down');
    else return;
    e.preventDefault();
  };
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', whiteSpace: 'nowrap' }} onKeyDown={onKeyDown}>
      <DragIndicatorIcon fontSize="small" sx={{ color: 'text.secondary', cursor: 'grab', mr: 0.5 }} aria-hidden />
      <RowTooltip title={`Move ${title} up`}>
        <span>
          <IconButton ref={up} size="small" aria-label="Move up" disabled={api.busy || index === 0} onClick={() => api.move(index, index - 1, 'up')}>
            <ArrowUpwardIcon fontSize="small" />
          </IconButton>
        </span>
      </RowTooltip>
      <RowTooltip title={`Move ${title} down`}>
        <span>
          <IconButton
            ref={down}
            size="small"
            aria-label="Move down"
            disabled={api.busy || index === last}
            onClick={() => api.move(index, index + 1, 'down')}
          >
            <ArrowDownwardIcon fontSize="small" />
          </IconButton>
        </span>
      </RowTooltip>
    </Box>
  );
}

interface ReorderDatagridProps extends Omit<DatagridProps, 'data' | 'body' | 'children'> {
  /** The resource's manifest (`resource` is react-admin's name for the resource's name). */
  manifest: ResourceDef;
  reorder: Reorder;
  children: ReactNode;
  /** Rows take the keyboard's focus (a row that opens its record: ListScreen.tsx). */
  focusableRows?: boolean;
}

/** A Datagrid whose rows are in the reorder field's order and move by drag and drop or keyboard. */
export function ReorderDatagrid({ manifest, reorder, children, focusableRows, ...rest }: ReorderDatagridProps) {
  const tabIndex = focusableRows ? 0 : undefined;
  const { data, page, perPage, sort, setSort } = useListContext();
  const { permissions } = usePermissions();
  const toast = useToast();
  const refresh = useRefresh();
  const [shown, setShown] = useState<{ base: RaRecord[] | undefined; rows: RaRecord[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragged, setDragged] = useState<string | null>(null);
  // Read by the drag handlers, which may run before the state above is drawn.
  const draggedRef = useRef<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const [focus, setFocus] = useState<ReorderApi['focus']>(null);

  // Shown in the reorder field's order, whatever sort the URL or a stored preference asks for.
  useEffect(() => {
    if (sort.field !== reorder.field || sort.order !== 'ASC') setSort({ field: reorder.field, order: 'ASC' });
  }, [sort.field, sort.order, reorder.field, setSort]);

  const sorted = useMemo(
    () => (data ? [...data].sort((a, b) => orderOf(a, reorder.field) - orderOf(b, reorder.field)) : data),
    [data, reorder.field],
  );
  // The order just made is shown until the list answers again (a new page of data replaces it).
  const rows = shown && shown.base === data ? shown.rows : sorted;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const offset = (Math.max(page, 1) - 1) * perPage;

  const move = useCallback(
    (from: number, to: number, towards?: 'up' | 'down') => {
      const current = rowsRef.current;
      if (busy || !current || from === to || from < 0 || to < 0 || from >= current.length || to >= current.length) return;
      const moved = arrayMove(current, from, to);
      const body = reorderBody(reorder, moved, offset);
      const numbered = moved.map((r, i) => ({ ...r, [reorder.field]: offset + i + 1 }));
      setShown({ base: data, rows: numbered });
      if (towards) setFocus({ id: String(current[from].id), towards });
      setBusy(true);
      send(reorder.call, {}, body)
        .then(() => refresh())
        .catch((error: unknown) => {
          setShown(null);
          toast(failureToast(REORDER_FAILURE, error));
        })
        .finally(() => setBusy(false));
    },
    [busy, data, offset, reorder, refresh, toast],
  );

  const ids = useMemo(() => (rows ?? []).map((r) => String(r.id)), [rows]);
  const api = useMemo<ReorderApi>(
    () => ({
      ids,
      busy,
      dragged,
      over,
      focus,
      move,
      isDragging: () => draggedRef.current !== null,
      startDrag: (id) => {
        draggedRef.current = id;
        setDragged(id);
        setFocus(null);
      },
      dragOver: (id) => setOver((o) => (o === id ? o : id)),
      drop: (id) => {
        const from = draggedRef.current === null ? -1 : ids.indexOf(draggedRef.current);
        draggedRef.current = null;
        setDragged(null);
        setOver(null);
        move(from, ids.indexOf(id));
      },
      endDrag: () => {
        draggedRef.current = null;
        setDragged(null);
        setOver(null);
      },
      titleOf: (id) => {
        const record = rows?.find((r) => String(r.id) === id);
        const title = record?.[manifest.title];
        return title === undefined || title === null || title === '' ? `row ${ids.indexOf(id) + 1}` : String(title);
      },
    }),
    [ids, busy, dragged, over, focus, move, rows, manifest.title],
  );

  // A role that may not reorder sees the rows in the same order, without the grip, the buttons or dragging.
  if (!mayReorder(manifest, permissions))
    return (
      <Datagrid {...rest} data={rows} body={<DatagridBody row={<DatagridRow tabIndex={tabIndex} />} />}>
        {children}
      </Datagrid>
    );
  return (
    <ReorderContext.Provider value={api}>
      <Datagrid {...rest} data={rows} body={<DatagridBody row={<ReorderRow tabIndex={tabIndex} />} />}>
        <ReorderHandle label="Reorder" sortable={false} />
        {children}
      </Datagrid>
    </ReorderContext.Provider>
  );
}

/**
 * Saved queries: a menu of the list's named queries (filter, search, sort and page size) to go back
 * to in one click, the current one saved under a name, or removed. They are react-admin's own saved
 * queries (`useSavedQueries`, kept per resource in the browser's store), offered from the toolbar
 * rather than a sidebar so they take no room from the list on any screen.
 */
import { useId, useState, type FormEvent } from 'react';
import { Dialog, DialogActions, DialogContent, DialogTitle, Divider, ListItemIcon, ListItemText, Menu, MenuItem, TextField, useMediaQuery, type Theme } from '@mui/material';
import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import BookmarkAddIcon from '@mui/icons-material/BookmarkAdd';
import BookmarkRemoveIcon from '@mui/icons-material/BookmarkRemove';
import CheckIcon from '@mui/icons-material/Check';
import { Button, extractValidSavedQueries, useListContext, useSavedQueries, type SavedQuery } from 'react-admin';
import { DialogButtons } from '../dialogs/DialogButtons.tsx';

/** Whether two query values are the same query (key order aside). */
const sameQuery = (a: unknown, b: unknown): boolean => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
  return value;
}

export function SavedQueriesButton() {
  const { resource, filterValues, displayedFilters, sort, perPage, setFilters, setSort, setPerPage, setPage } = useListContext();
  const [stored, setStored] = useSavedQueries(resource);
  const queries = extractValidSavedQueries(stored);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const titleId = useId();
  const menuId = useId();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

  const current: SavedQuery['value'] = { filter: filterValues, sort, perPage, displayedFilters };
  const saved = queries.find((q) => sameQuery(q.value, current));
  const close = () => setAnchor(null);

  const apply = (query: SavedQuery) => {
    close();
    // Changes made in one go are sent as one new address (react-admin batches them).
    setFilters(query.value.filter ?? {}, query.value.displayedFilters ?? {});
    if (query.value.sort) setSort(query.value.sort);
    if (query.value.perPage) setPerPage(query.value.perPage);
    setPage(1);
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    const label = name.trim();
    if (!label) return;
    setStored([...queries.filter((q) => q.label !== label), { label, value: current }]);
    setNaming(false);
    setName('');
  };
  const remove = () => {
    close();
    setStored(queries.filter((q) => q !== saved));
  };

  return (
    <>
      <Button
        label="Saved queries"
        aria-label="Saved queries"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <BookmarkBorderIcon />
      </Button>
      {/* In place, not in a portal at the page's end: the menu stays inside the page's main landmark. */}
      <Menu id={menuId} anchorEl={anchor} open={!!anchor} onClose={close} disablePortal>
        {queries.map((q) => (
          <MenuItem key={q.label} selected={q === saved} aria-current={q === saved ? 'true' : undefined} onClick={() => apply(q)}>
            <ListItemIcon>{q === saved ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
            <ListItemText>{q.label}</ListItemText>
          </MenuItem>
        ))}
        {queries.length > 0 && <Divider component="li" role="separator" />}
        {saved ? (
          <MenuItem onClick={remove}>
            <ListItemIcon>
              <BookmarkRemoveIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>Remove “{saved.label}”</ListItemText>
          </MenuItem>
        ) : (
          <MenuItem
            onClick={() => {
              close();
              setNaming(true);
            }}
          >
            <ListItemIcon>
              <BookmarkAddIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>Save current query…</ListItemText>
          </MenuItem>
        )}
      </Menu>
      <Dialog open={naming} onClose={() => setNaming(false)} aria-labelledby={titleId} fullScreen={phone} maxWidth="xs" fullWidth>
        <form onSubmit={save}>
          <DialogTitle id={titleId}>Save current query</DialogTitle>
          <DialogContent>
            <TextField
              autoFocus
              margin="dense"
              label="Name"
              fullWidth
              required
              value={name}
              onChange={(e) => setName(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
          </DialogContent>
          <DialogActions>
            <DialogButtons busy={false} busyLabel="Saving" onCancel={() => setNaming(false)}>
              Save
            </DialogButtons>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}

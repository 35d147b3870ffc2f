/**
 * The search modal (spec §2 searchModal; issue 53 point 5): a type choice, 'Serial Number / Product ID'
 * (value id) or 'Product name' (value name, the default), and the text; submitting goes to
 * /search?q=…&type=… (SearchResultsPage.tsx). It calls nothing itself.
 *
 * Not a record dialog (it opens with no record and calls nothing), so not declared in a manifest: the
 * shop's bar and the app bar open it (`SearchButton`), and check:spec counts the type as declared here
 * (`SEARCH_MODAL`, shop-query.ts).
 */
import { useId, useState, type FormEvent } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  IconButton,
  Radio,
  RadioGroup,
  TextField,
  Tooltip,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useNavigate } from 'react-admin';
import { DEFAULT_SEARCH_TYPE, SEARCH_TYPE_CHOICES, searchAddress, SHOP_LIMITS, type SearchType } from './shop-query.ts';

export const SEARCH_TITLE = 'Search products';

/** The modal's form: the type choice, the text, Search (and Cancel when `onCancel` is given). */
export function SearchForm({ onDone, onCancel, initial }: { onDone?: () => void; onCancel?: () => void; initial?: { q?: string; type?: SearchType } }) {
  const navigate = useNavigate();
  const [type, setType] = useState<SearchType>(initial?.type ?? DEFAULT_SEARCH_TYPE);
  const [q, setQ] = useState(initial?.q ?? '');
  const labelId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = q.trim();
    if (!text) return;
    navigate(searchAddress(text, type));
    onDone?.();
  };
  const label = SEARCH_TYPE_CHOICES.find((c) => c.value === type)!.label;
  return (
    <form onSubmit={submit} role="search" aria-label="Search products">
      <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
        <FormControl>
          <FormLabel id={labelId}>Search by</FormLabel>
          <RadioGroup row aria-labelledby={labelId} name="type" value={type} onChange={(e) => setType(e.target.value as SearchType)}>
            {SEARCH_TYPE_CHOICES.map((c) => (
              <FormControlLabel key={c.value} value={c.value} control={<Radio />} label={c.label} />
            ))}
          </RadioGroup>
        </FormControl>
        <TextField
          autoFocus
          label={label}
          name="q"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          slotProps={{ htmlInput: { maxLength: SHOP_LIMITS.maxQuery } }}
        />
      </DialogContent>
      <DialogActions>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={!q.trim()}>
          Search
        </Button>
      </DialogActions>
    </form>
  );
}

/** The modal in a dialog of its own. */
export function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="search-modal-title">
      <DialogTitle id="search-modal-title">{SEARCH_TITLE}</DialogTitle>
      {open && <SearchForm onDone={onClose} onCancel={onClose} />}
    </Dialog>
  );
}

/** A search icon that opens the modal (the shop's bar, the app bar). */
export function SearchButton({ color = 'inherit' }: { color?: 'inherit' | 'primary' }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={SEARCH_TITLE}>
        <IconButton color={color} aria-label={SEARCH_TITLE} onClick={() => setOpen(true)}>
          <SearchIcon />
        </IconButton>
      </Tooltip>
      <SearchDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

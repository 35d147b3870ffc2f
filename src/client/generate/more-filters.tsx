/**
 * The list's Filters button: the filters that do not stand above the list (filters.tsx says which), in
 * a popover on a wide screen and a drawer from the bottom on a phone. The button counts those of them
 * in use, so a filter out of sight is never forgotten; Clear empties them. The inputs change the list
 * as they are filled, as the filters above it do.
 */
import { useId, useState, type ReactElement } from 'react';
import { Box, Drawer, Popover, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import { Button, FilterLiveForm, useListContext } from 'react-admin';

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The sources of `filters` that hold a value in `values`. */
export function activeFilters(filters: ReactElement[], values: Record<string, unknown> = {}): string[] {
  return filters.map((f) => String((f.props as { source?: string }).source)).filter((source) => !isEmpty(values[source]));
}

/** The button's label: 'Filters', or 'Filters (2)' while two of its filters are in use. */
export const filtersLabel = (active: number) => (active ? `Filters (${active})` : 'Filters');

export function MoreFiltersButton({ filters }: { filters: ReactElement[] }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { filterValues, setFilters } = useListContext();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const headingId = useId();
  if (!filters.length) return null;
  const active = activeFilters(filters, filterValues);
  const close = () => setAnchor(null);
  const clear = () => {
    const kept = { ...filterValues };
    for (const source of active) delete kept[source];
    setFilters(kept);
  };
  const paper = { role: 'dialog', 'aria-labelledby': headingId } as object;
  const body = (
    <Box sx={{ p: 2, width: phone ? 'auto' : 320, boxSizing: 'border-box' }}>
      <Typography id={headingId} variant="subtitle1" component="h2" gutterBottom>
        Filters
      </Typography>
      <FilterLiveForm debounce={300}>
        <Stack sx={{ '& .MuiFormControl-root': { width: '100%', m: 0 } }}>{filters}</Stack>
      </FilterLiveForm>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', mt: 1 }}>
        <Button label="Clear" onClick={clear} disabled={!active.length} />
        <Button label="Done" variant="contained" onClick={close} />
      </Stack>
    </Box>
  );
  return (
    <>
      <Button label={filtersLabel(active.length)} aria-haspopup="dialog" onClick={(e) => setAnchor(e.currentTarget)}>
        <FilterListIcon />
      </Button>
      {phone ? (
        <Drawer anchor="bottom" open={!!anchor} onClose={close} slotProps={{ paper }}>
          {body}
        </Drawer>
      ) : (
        <Popover
          open={!!anchor}
          anchorEl={anchor}
          onClose={close}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          slotProps={{ paper }}
        >
          {body}
        </Popover>
      )}
    </>
  );
}

/**
 * The column chooser: a Columns button whose popover ticks each of the list's columns on or off. The
 * choice is kept per resource in react-admin's store (the browser's localStorage), so a list opens as
 * it was left; until a choice is made, the columns `HIDDEN_BY_DEFAULT` (the timestamps) are hidden. At
 * least one column stays shown. A column the table left out to fit the screen (fit-columns.ts) is
 * unticked too; ticking a column on asks for it whatever the width (it is kept, and others make room).
 */
import { useId, useState, type ReactElement } from 'react';
import { Box, Checkbox, FormControlLabel, FormGroup, Popover, Typography } from '@mui/material';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { Button, useStore } from 'react-admin';
import type { ResourceDef } from '../../manifest/index.ts';
import { HIDDEN_BY_DEFAULT } from './columns.tsx';

/** A column the chooser offers: the element's key and its header label. */
export interface Column {
  key: string;
  label: string;
}

/** The store key of a resource's hidden columns. */
export const hiddenColumnsKey = (resource: ResourceDef) => `preferences.${resource.name}.hiddenColumns`;
/** The store key of the columns the user ticked on: never left out to fit the width. */
export const keptColumnsKey = (resource: ResourceDef) => `preferences.${resource.name}.keptColumns`;

/** What the chooser knows of a column element (its `key`, and the `label` its header shows). */
export function columnOf(element: ReactElement): Column {
  const props = (element.props ?? {}) as { label?: unknown; source?: unknown };
  const key = String(element.key ?? props.source ?? '');
  return { key, label: typeof props.label === 'string' ? props.label : key };
}

const HIDDEN_AT_FIRST = [...HIDDEN_BY_DEFAULT];

const NONE: string[] = [];
const listOf = (value: unknown) => (Array.isArray(value) ? (value as string[]) : NONE);

/**
 * The columns the user chose to hide (until a choice is made: those `HIDDEN_BY_DEFAULT`), those they
 * ticked on (`kept`), and a toggle: `shown` says whether the column is shown now (it may be left out to
 * fit while not hidden).
 */
export function useHiddenColumns(resource: ResourceDef) {
  const [hiddenStored, setHidden] = useStore<string[]>(hiddenColumnsKey(resource), HIDDEN_AT_FIRST);
  const [keptStored, setKept] = useStore<string[]>(keptColumnsKey(resource), NONE);
  const hidden = listOf(hiddenStored);
  const kept = listOf(keptStored);
  const toggle = (key: string, shown: boolean) => {
    setHidden(shown ? [...hidden.filter((k) => k !== key), key] : hidden.filter((k) => k !== key));
    setKept(shown ? kept.filter((k) => k !== key) : [...kept.filter((k) => k !== key), key]);
  };
  return { hidden, kept, toggle };
}

interface Props {
  columns: Column[];
  /** The columns not shown: hidden, or left out to fit. */
  hidden: string[];
  onToggle: (key: string, shown: boolean) => void;
}

export function ColumnsButton({ columns, hidden, onToggle }: Props) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const headingId = useId();
  const shown = columns.filter((c) => !hidden.includes(c.key)).length;
  return (
    <>
      <Button label="Columns" aria-label="Columns" aria-haspopup="dialog" onClick={(e) => setAnchor(e.currentTarget)}>
        <ViewColumnIcon />
      </Button>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': headingId } as object }}
      >
        <Box sx={{ px: 2, py: 1.5, minWidth: 200 }}>
          <Typography id={headingId} variant="subtitle2" component="h2" gutterBottom>
            Shown columns
          </Typography>
          <FormGroup>
            {columns.map((c) => {
              const on = !hidden.includes(c.key);
              return (
                <FormControlLabel
                  key={c.key}
                  label={c.label}
                  // The last shown column stays: a list without columns shows nothing to choose from.
                  control={<Checkbox size="small" checked={on} disabled={on && shown === 1} onChange={() => onToggle(c.key, on)} />}
                />
              );
            })}
          </FormGroup>
        </Box>
      </Popover>
    </>
  );
}

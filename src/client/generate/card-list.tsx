/**
 * A list on a phone: one card per record instead of a table, which would be wider than the screen.
 * Made from the same columns as the table: the title field is the card's heading (a button that opens
 * the record's dialog, as a row click does on a wide screen), an image field its thumbnail, a few
 * columns a secondary line of "label value" pairs, and the row's actions stay below it. Those few are
 * the ones that matter most on a card: amounts first (a product's prices), then states (its commission
 * status: a select, a flag, a value with choices), then the others, each group in the list's order.
 */
import type { ReactElement, ReactNode } from 'react';
import { Box, ButtonBase, Card, LinearProgress, Typography } from '@mui/material';
import { ListNoResults, RecordContextProvider, useListContext, type RaRecord } from 'react-admin';
import type { ResourceDef } from '../../manifest/index.ts';
import { columnOf } from './column-chooser.tsx';
import { fieldWeight } from './columns.tsx';
import { recordName } from './selection.tsx';

/** How many columns besides the title and the image a card shows. */
export const SECONDARY_COLUMNS = 3;

interface Props {
  resource: ResourceDef;
  /** The list's columns, as the table shows them. */
  columns: ReactElement[];
  /** The row actions (react-admin reads a record from the context, as in a table row). */
  actions?: ReactNode;
  /** What tapping a card's title does: open its update or details dialog. */
  onOpen?: (record: RaRecord) => void;
}

/** The columns a card shows, by role. */
export function cardParts(resource: ResourceDef, columns: ReactElement[]) {
  const fieldOf = (c: ReactElement) => resource.fields.find((f) => f.name === columnOf(c).key);
  const title = columns.find((c) => columnOf(c).key === resource.title);
  const image = columns.find((c) => fieldOf(c)?.kind === 'image');
  const rest = columns.filter((c) => c !== title && c !== image);
  // A stable sort: within a weight, the list's order.
  const secondary = [...rest].sort((a, b) => fieldWeight(fieldOf(a)) - fieldWeight(fieldOf(b))).slice(0, SECONDARY_COLUMNS);
  return { title, image, secondary };
}

export function CardList({ resource, columns, actions, onOpen }: Props) {
  const { data, isPending } = useListContext();
  if (isPending) return <LinearProgress aria-label={`Loading ${resource.plural}`} sx={{ m: 2 }} />;
  if (!data?.length) return <ListNoResults />;
  const { title, image, secondary } = cardParts(resource, columns);
  return (
    <Box component="ul" aria-label={resource.plural} sx={{ listStyle: 'none', m: 0, p: 1, display: 'grid', gap: 1 }}>
      {data.map((record) => {
        const name = recordName(record, resource.title);
        const heading = title ?? <span>{name}</span>;
        return (
          <RecordContextProvider key={record.id} value={record}>
            <Box component="li">
              <Card variant="outlined" sx={{ p: 1.5, display: 'flex', gap: 1.5, alignItems: 'flex-start', overflowWrap: 'anywhere' }}>
                {image && <Box sx={{ flex: 'none' }}>{image}</Box>}
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  {onOpen ? (
                    <ButtonBase
                      onClick={() => onOpen(record)}
                      aria-label={`Open ${name}`}
                      sx={{ display: 'block', textAlign: 'left', borderRadius: 1, fontWeight: 500, typography: 'body1', width: '100%' }}
                    >
                      {heading}
                    </ButtonBase>
                  ) : (
                    <Typography component="div" sx={{ fontWeight: 500 }}>
                      {heading}
                    </Typography>
                  )}
                  {secondary.length > 0 && (
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, mt: 0.5, color: 'text.secondary' }}>
                      {secondary.map((c) => (
                        <Box key={c.key} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, typography: 'body2' }}>
                          <Typography component="span" variant="caption" color="text.secondary">
                            {columnOf(c).label}
                          </Typography>
                          {c}
                        </Box>
                      ))}
                    </Box>
                  )}
                  {actions && <Box sx={{ mt: 0.5, display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap' }}>{actions}</Box>}
                </Box>
              </Card>
            </Box>
          </RecordContextProvider>
        );
      })}
    </Box>
  );
}

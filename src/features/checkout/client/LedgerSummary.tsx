/**
 * What a seller has earned, asked for, been paid and is owed, read from the ledger (issue 52 points 6
 * and 9: `GET /ledger-entries/summary`, src/features/checkout/ledger.ts). On a seller's area its own; on
 * a dealer's its own and each of its sellers'; on the admin's dashboard the whole marketplace's and the
 * sellers owed the most. Shown to the roles the summary call allows (its declaration in resources/ledger.ts).
 */
import { Box, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { ledgerEntries } from '../../../../resources/ledger.ts';
import { send } from '../../../client/providers/http.ts';
import { mayCall } from '../../../client/generate/access.ts';
import { Section } from '../../../client/shell/section.tsx';
import { LoadingSkeleton } from '../../../client/shell/loading.tsx';

interface Figures {
  earned: string;
  requested: string;
  paid: string;
  due: string;
}
interface Summary extends Figures {
  team?: (Figures & { sellerId: string; name: string })[];
}

const summary = ledgerEntries.operations.summary;

/** The four figures, in the order money moves: earned, asked for, paid, still owed. */
const FIGURES: [keyof Figures, string][] = [
  ['earned', 'Earned'],
  ['requested', 'Payouts requested'],
  ['paid', 'Paid out'],
  ['due', 'Due'],
];

export function LedgerSummary({ role }: { role: unknown }) {
  const allowed = mayCall(role, ledgerEntries, { operation: summary });
  const { data, isPending, error } = useQuery({
    queryKey: ['ledger-summary', role],
    queryFn: async () => (await send(summary.call, {})).json as Summary,
    enabled: allowed,
  });
  if (!allowed) return null;
  const whole = role === 'admin';
  return (
    <Section title={whole ? 'Money owed to sellers' : 'Your earnings'}>
      <Card variant="outlined">
        <CardContent>
          {isPending ? (
            <LoadingSkeleton label="Reading the ledger" />
          ) : error || !data ? (
            <Typography color="text.secondary">The ledger could not be read just now.</Typography>
          ) : (
            <>
              <Box component="dl" sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 150px), 1fr))', m: 0 }}>
                {FIGURES.map(([key, label]) => (
                  <Box key={key}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {label}
                    </Typography>
                    <Typography component="dd" variant="h6" sx={{ m: 0 }}>
                      {data[key]}
                    </Typography>
                  </Box>
                ))}
              </Box>
              {data.team && data.team.length > 0 && (
                <Box sx={{ mt: 2, overflowX: 'auto' }}>
                  <Table size="small" aria-label={whole ? 'Sellers owed the most' : 'Your sellers'}>
                    <TableHead>
                      <TableRow>
                        <TableCell>Seller</TableCell>
                        {FIGURES.map(([key, label]) => (
                          <TableCell key={key} align="right">
                            {label}
                          </TableCell>
                        ))}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {data.team.map((s) => (
                        <TableRow key={s.sellerId}>
                          <TableCell>{s.name || s.sellerId}</TableCell>
                          {FIGURES.map(([key]) => (
                            <TableCell key={key} align="right">
                              {s[key]}
                            </TableCell>
                          ))}
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </Section>
  );
}

/**
 * "Storefront people" (admin): the four sliders the storefront shows (admins, agents, dealers,
 * sellers), read from the public sliders call exactly as the storefront reads them, so the admin sees
 * what visitors see, fallbacks included, and each slider's load error (§8) when it fails.
 */
import { Alert, Avatar, Box, Card, CardContent, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { SLIDER_TYPES, type SliderEntries, type SliderType } from '../../domain/sliders.ts';
import { AVATAR_FALLBACK } from '../providers/auth.ts';
import { Section } from '../shell/Dashboard.tsx';
import { LoadingSkeleton } from '../shell/loading.tsx';
import { useSliders } from './use-sliders.ts';

const HEADINGS: Record<SliderType, string> = { ADMINS: 'Admins', AGENTS: 'Agents', DEALERS: 'Dealers', SELLERS: 'Sellers' };

/** What a card says under the name: the place, and the public id where the type has one. */
function detailsOf(entry: SliderEntries[SliderType]): string {
  const e = entry as Partial<SliderEntries['AGENTS'] & SliderEntries['DEALERS']>;
  const place = [e.district, e.city, e.country].filter(Boolean).join(', ');
  const id = e.agentId ?? e.dealerId;
  return id ? `${place} · ${id}` : place;
}

function Slider({ type }: { type: SliderType }) {
  const { entries, isPending, error } = useSliders(type);
  return (
    <Section title={HEADINGS[type]}>
      {error ? (
        <Alert severity="error">{error}</Alert>
      ) : isPending ? (
        <LoadingSkeleton variant="rounded" height={72} label={`Loading ${HEADINGS[type].toLowerCase()}`} />
      ) : entries.length ? (
        <Box component="ul" aria-label={HEADINGS[type]} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 220px), 1fr))', m: 0, p: 0, listStyle: 'none' }}>
          {entries.map((entry, i) => (
            <Box component="li" key={i}>
              <Card variant="outlined" sx={{ height: '100%' }}>
                <CardContent sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
                  <Avatar src={entry.image || AVATAR_FALLBACK} alt="" />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography component="p" variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
                      {entry.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {detailsOf(entry)}
                    </Typography>
                  </Box>
                </CardContent>
              </Card>
            </Box>
          ))}
        </Box>
      ) : (
        <Typography color="text.secondary">Nobody to show yet.</Typography>
      )}
    </Section>
  );
}

export function PeopleScreen() {
  return (
    <Box sx={{ py: 2, px: { xs: 1, sm: 0 } }}>
      <Title title="Storefront people" />
      {SLIDER_TYPES.map((type) => (
        <Slider key={type} type={type} />
      ))}
    </Box>
  );
}

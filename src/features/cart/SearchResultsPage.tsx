/**
 * The search modal's results (/search?q=…&type=id|name; spec §2, issue 53 point 5): the approved
 * product of exactly that id, or those whose name contains the text, from the public
 * `GET /api/shop/search` (src/server/front/shop.ts). A type that is not one of §9's is read as the default.
 */
import { useEffect, useState } from 'react';
import { Alert, LinearProgress, Typography } from '@mui/material';
import { useLocation } from 'react-admin';
import { httpClient } from '../../client/providers/http.ts';
import { ProductGrid } from './ProductGrid.tsx';
import { ShopFrame } from './ShopFrame.tsx';
import { DEFAULT_SEARCH_TYPE, SEARCH_TYPE_CHOICES, SEARCH_TYPES, SHOP_LIMITS, SHOP_SEARCH_PATH, type SearchType, type ShopAnswer } from './shop-query.ts';

export function SearchResultsPage() {
  const params = new URLSearchParams(useLocation().search);
  const q = (params.get('q') ?? '').trim().slice(0, SHOP_LIMITS.maxQuery);
  const asked = params.get('type');
  const type: SearchType = (SEARCH_TYPES as readonly (string | null)[]).includes(asked) ? (asked as SearchType) : DEFAULT_SEARCH_TYPE;
  const [page, setPage] = useState(1);
  const [answer, setAnswer] = useState<ShopAnswer>();
  const [error, setError] = useState<string>();

  useEffect(() => setPage(1), [q, type]);
  useEffect(() => {
    let live = true;
    setAnswer(undefined);
    httpClient(`${SHOP_SEARCH_PATH}?${new URLSearchParams({ q, type, page: String(page), limit: String(SHOP_LIMITS.limit) })}`).then(
      ({ json }) => live && (setAnswer(json as ShopAnswer), setError(undefined)),
      (e: Error) => live && setError(e.message || 'Unable to search.'),
    );
    return () => {
      live = false;
    };
  }, [q, type, page]);

  const by = SEARCH_TYPE_CHOICES.find((c) => c.value === type)!.label;
  return (
    <ShopFrame title="Search results">
      <Typography sx={{ mb: 2 }} role="status">
        {answer ? `${answer.total} ${answer.total === 1 ? 'result' : 'results'} for “${q}” (${by})` : `Searching for “${q}” (${by})`}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {!answer && !error && <LinearProgress aria-label="Searching" />}
      {answer && <ProductGrid answer={answer} page={page} limit={SHOP_LIMITS.limit} onPage={setPage} empty="No products match your search." />}
    </ShopFrame>
  );
}

/**
 * The shop's catalogue (/shop; issue 52 point 2): approved products for buyers and guests, searched by
 * name and filtered by category, newest first, each with Add to cart. Reads the public
 * `GET /api/shop/products` (src/server/front/shop.ts); the filter's choices `GET /api/shop/categories`.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, LinearProgress, MenuItem, TextField } from '@mui/material';
import { httpClient } from '../../client/providers/http.ts';
import { ProductGrid } from './ProductGrid.tsx';
import { ShopFrame } from './ShopFrame.tsx';
import { SHOP_CATEGORIES_PATH, SHOP_LIMITS, SHOP_PRODUCTS_PATH, type ShopAnswer } from './shop-query.ts';

const ALL = '';

export function ShopPage() {
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  const [category, setCategory] = useState(ALL);
  const [page, setPage] = useState(1);
  const [categories, setCategories] = useState<{ id: string; name: string }[]>([]);
  const [answer, setAnswer] = useState<ShopAnswer>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    httpClient(SHOP_CATEGORIES_PATH).then(({ json }) => setCategories((json as { data: { id: string; name: string }[] }).data), () => {});
  }, []);
  // The typed text is searched once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => {
    let live = true;
    const query = new URLSearchParams({ page: String(page), limit: String(SHOP_LIMITS.limit) });
    if (q) query.set('q', q);
    if (category) query.set('category', category);
    httpClient(`${SHOP_PRODUCTS_PATH}?${query}`).then(
      ({ json }) => live && (setAnswer(json as ShopAnswer), setError(undefined)),
      (e: Error) => live && setError(e.message || 'Unable to load the products.'),
    );
    return () => {
      live = false;
    };
  }, [q, category, page]);

  return (
    <ShopFrame title="Products">
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <TextField label="Search by name" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} sx={{ flex: '1 1 240px' }} slotProps={{ htmlInput: { maxLength: SHOP_LIMITS.maxQuery } }} />
        <TextField
          select
          label="Category"
          value={category}
          onChange={(e) => {
            setCategory(e.target.value);
            setPage(1);
          }}
          sx={{ flex: '0 1 240px', minWidth: 180 }}
        >
          <MenuItem value={ALL}>All categories</MenuItem>
          {categories.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      {!answer && !error && <LinearProgress aria-label="Loading products" />}
      {answer && <ProductGrid answer={answer} page={page} limit={SHOP_LIMITS.limit} onPage={setPage} empty="No products found." />}
    </ShopFrame>
  );
}

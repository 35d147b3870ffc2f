/**
 * Approved products as cards (the catalogue and the search results), each with its price and Add to
 * cart (one more when it is there: §4's add rule, cart-store.ts). Roles without a cart see no button.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, CardMedia, Pagination, Typography } from '@mui/material';
import AddShoppingCartIcon from '@mui/icons-material/AddShoppingCart';
import { addProduct, useCart } from './cart-store.ts';
import type { ShopAnswer, ShopProduct } from './shop-query.ts';
import { AskAboutProduct } from '../support/client/AskAboutProduct.tsx';

const FALLBACK_IMAGE = '/logo.jpg';

function ProductCard({ product }: { product: ShopProduct }) {
  const { mode } = useCart();
  const [added, setAdded] = useState(false);
  const add = async () => {
    await addProduct(product);
    setAdded(true);
  };
  return (
    <Card component="article" aria-label={product.name} sx={{ display: 'flex', flexDirection: 'column' }}>
      <CardMedia
        component="img"
        height="140"
        image={product.images || FALLBACK_IMAGE}
        alt=""
        onError={(e) => ((e.currentTarget as HTMLImageElement).src = FALLBACK_IMAGE)}
        sx={{ objectFit: 'contain', bgcolor: 'action.hover' }}
      />
      <CardContent sx={{ flexGrow: 1 }}>
        <Typography component="h2" variant="subtitle1" sx={{ wordBreak: 'break-word' }}>
          {product.name}
        </Typography>
        <Typography variant="h6">{product.priceFormatted}</Typography>
        <Typography variant="body2" color="text.secondary">
          {product.stock > 0 ? `${product.stock} in stock` : 'Out of stock'}
        </Typography>
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap' }}>
        {mode !== 'none' && (
          <Button startIcon={<AddShoppingCartIcon />} onClick={add} disabled={product.stock <= 0} aria-label={`Add to cart: ${product.name}`}>
            Add to cart
          </Button>
        )}
        {added && (
          <Typography variant="body2" role="status">
            Added
          </Typography>
        )}
        {/* A signed-in asker (buyer, dealer, agent) asks about the product in view. */}
        <AskAboutProduct product={product} />
      </CardActions>
    </Card>
  );
}

export function ProductGrid({
  answer,
  page,
  limit,
  onPage,
  empty,
}: {
  answer: ShopAnswer;
  page: number;
  limit: number;
  onPage: (page: number) => void;
  empty: string;
}) {
  if (!answer.data.length) return <Alert severity="info">{empty}</Alert>;
  const pages = Math.ceil(answer.total / limit);
  return (
    <>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
        {answer.data.map((p) => (
          <ProductCard key={p.id} product={p} />
        ))}
      </Box>
      {pages > 1 && <Pagination sx={{ mt: 3 }} count={pages} page={page} onChange={(_, p) => onPage(p)} />}
    </>
  );
}

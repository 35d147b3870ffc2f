/**
 * The cart page (/cart; issue 52 point 2): the cart's lines with their prices now, a price that changed
 * since the product was added shown as changed (before paying), quantities up and down (never below 1,
 * §4), remove, empty, and the total through the one money formatter. A guest's cart is the one in
 * browser storage (it is merged into the server's on signing in); a buyer's is the server's
 * (cart-store.ts). A buyer's checkout form goes below the totals (../checkout/CheckoutForm.tsx).
 */
import { useEffect, useState } from 'react';
import { Alert, Avatar, Box, Button, Chip, IconButton, LinearProgress, List, ListItem, Paper, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import DeleteIcon from '@mui/icons-material/Delete';
import { Link } from 'react-admin';
import { decrement, empty, increment, reloadCart, remove, useCart, type CartViewLine } from './cart-store.ts';
import { ShopFrame } from './ShopFrame.tsx';
import { SHOP_PAGE } from './shop-query.ts';
import { CheckoutForm, PlacedAlert, type Placed } from '../checkout/CheckoutForm.tsx';

export const CART_TEXTS = {
  title: 'Your cart',
  empty: 'Your cart is empty.',
  priceChanged: 'Some prices changed since you added these products.',
  unavailable: 'No longer for sale',
  signIn: 'Sign in to check out',
} as const;

export const priceChangedText = (line: CartViewLine) => `Price changed: was ${line.addedPriceFormatted}, now ${line.priceFormatted}`;

function CartLine({ line, busy }: { line: CartViewLine; busy: boolean }) {
  return (
    <ListItem divider aria-label={line.name} sx={{ gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
      <Avatar variant="rounded" src={line.images || '/logo.jpg'} alt="" />
      <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
        <Typography sx={{ wordBreak: 'break-word' }}>{line.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {line.priceFormatted} each
        </Typography>
        {line.priceChanged && <Chip size="small" variant="outlined" label={priceChangedText(line)} sx={{ mt: 0.5 }} />}
        {!line.available && <Chip size="small" variant="outlined" label={CART_TEXTS.unavailable} sx={{ mt: 0.5 }} />}
      </Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <IconButton aria-label={`One fewer: ${line.name}`} onClick={() => void decrement(line.id)} disabled={busy || line.quantity <= 1}>
          <RemoveIcon />
        </IconButton>
        <Typography aria-label={`Quantity of ${line.name}`} sx={{ minWidth: 24, textAlign: 'center' }}>
          {line.quantity}
        </Typography>
        <IconButton aria-label={`One more: ${line.name}`} onClick={() => void increment(line.id)} disabled={busy}>
          <AddIcon />
        </IconButton>
      </Stack>
      <Typography sx={{ minWidth: 90, textAlign: 'right' }}>{line.available ? line.lineFormatted : ''}</Typography>
      <IconButton aria-label={`Remove: ${line.name}`} onClick={() => void remove(line.id)} disabled={busy}>
        <DeleteIcon />
      </IconButton>
    </ListItem>
  );
}

/** The cart's lines, totals and actions (the page's content, without the shop's frame). */
export function CartContent() {
  const cart = useCart();
  const [placed, setPlaced] = useState<Placed>();
  useEffect(() => {
    void reloadCart();
  }, [cart.mode]);
  if (cart.mode === 'none') return <Alert severity="info">Only buyers have a cart.</Alert>;
  return (
    <Stack spacing={2}>
      {cart.loading && <LinearProgress aria-label="Updating the cart" />}
      {placed && <PlacedAlert placed={placed} />}
      {cart.error && <Alert severity="error">{cart.error}</Alert>}
      {cart.skipped.length > 0 && (
        <Alert severity="warning">Left out of your cart, no longer for sale: {cart.skipped.join(', ')}</Alert>
      )}
      {!cart.lines.length ? (
        <Alert severity="info" action={<Button component={Link} to={SHOP_PAGE}>Shop</Button>}>
          {CART_TEXTS.empty}
        </Alert>
      ) : (
        <>
          {cart.priceChanged && <Alert severity="warning">{CART_TEXTS.priceChanged}</Alert>}
          <Paper>
            <List aria-label="Cart items">
              {cart.lines.map((line) => (
                <CartLine key={line.id} line={line} busy={cart.loading} />
              ))}
            </List>
          </Paper>
          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 2 }}>
            <Button color="inherit" startIcon={<DeleteIcon />} onClick={() => void empty()} disabled={cart.loading}>
              Empty cart
            </Button>
            <Typography variant="h6" aria-label={`Total ${cart.total}`} data-testid="cart-total">
              Total: {cart.total}
            </Typography>
          </Stack>
          {cart.mode === 'guest' && (
            <Button variant="contained" component={Link} to="/login" sx={{ alignSelf: 'flex-end' }}>
              {CART_TEXTS.signIn}
            </Button>
          )}
          {/* After the totals: a signed-in buyer's cart is the server's, which the checkout reads. */}
          {cart.mode === 'buyer' && <CheckoutForm onPlaced={setPlaced} />}
        </>
      )}
    </Stack>
  );
}

/** The cart page, in the shop's frame. */
export function CartPage() {
  return (
    <ShopFrame title={CART_TEXTS.title}>
      <CartContent />
    </ShopFrame>
  );
}

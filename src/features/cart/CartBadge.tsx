/**
 * The cart badge (issue 52 point 2): a cart icon with the number of units in the cart, linking to the
 * cart page. In the app bar it also tells the cart store who is signed in, so a guest cart left in
 * browser storage is merged into the buyer's server cart right after signing in (cart-store.ts).
 */
import { useEffect } from 'react';
import { Badge, IconButton, Tooltip } from '@mui/material';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { Link, usePermissions } from 'react-admin';
import { setSession, useCart } from './cart-store.ts';
import { CART_PAGE } from './shop-query.ts';

/** Tells the store who is signed in (a role, or null for a guest), once it is known. */
export function useCartSession(): void {
  const { permissions, isPending } = usePermissions();
  useEffect(() => {
    if (!isPending) void setSession(typeof permissions === 'string' ? permissions : null);
  }, [permissions, isPending]);
}

export const cartLabel = (count: number) => `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;

/** The badge alone (no session tracking): shown only where there is a cart. */
export function CartBadgeButton() {
  const { count, mode } = useCart();
  if (mode === 'none') return null;
  return (
    <Tooltip title="Cart">
      <IconButton color="inherit" component={Link} to={CART_PAGE} aria-label={cartLabel(count)}>
        <Badge badgeContent={count} color="secondary" max={99} data-testid="cart-count">
          <ShoppingCartIcon />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}

/** The app bar's badge: tracks the session, shown to buyers. */
export function CartBadge() {
  useCartSession();
  return <CartBadgeButton />;
}

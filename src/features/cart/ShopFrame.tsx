/**
 * The frame of the shop's pages (/shop, /search, /cart): they are public, outside the admin's layout
 * (a guest browses and fills a cart before signing in), so they carry their own bar: the shop's name,
 * the search modal's button, the cart badge, and signing in (a guest) or the way back to the admin's
 * screens (signed in). The scroll-to-top button floats over every shop page.
 */
import type { ReactNode } from 'react';
import { AppBar, Box, Button, Container, Toolbar, Typography } from '@mui/material';
import { Link, usePermissions } from 'react-admin';
import { CartBadgeButton, useCartSession } from './CartBadge.tsx';
import { ScrollToTop } from './ScrollToTop.tsx';
import { SearchButton } from './SearchModal.tsx';
import { SHOP_PAGE } from './shop-query.ts';

export function ShopFrame({ title, children }: { title: string; children: ReactNode }) {
  useCartSession();
  const { permissions, isPending } = usePermissions();
  const signedIn = !isPending && typeof permissions === 'string';
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="sticky" color="primary">
        <Toolbar sx={{ gap: 1 }}>
          <Typography component={Link} to={SHOP_PAGE} variant="h6" sx={{ color: 'inherit', textDecoration: 'none', flexGrow: 1 }}>
            Shop
          </Typography>
          <SearchButton />
          <CartBadgeButton />
          {!isPending &&
            (signedIn ? (
              <Button color="inherit" component={Link} to="/">
                Dashboard
              </Button>
            ) : (
              <Button color="inherit" component={Link} to="/login">
                Sign in
              </Button>
            ))}
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="lg" sx={{ py: 3 }}>
        <Typography component="h1" variant="h5" sx={{ mb: 2 }}>
          {title}
        </Typography>
        {children}
      </Container>
      <ScrollToTop />
    </Box>
  );
}

/**
 * The shop's pages as routes outside the admin's layout (react-admin renders those whatever the auth
 * state): a guest browses /shop, searches (/search, the search modal's results) and fills /cart before
 * signing in. Each page's code loads when it is first opened.
 */
import { CustomRoutes, LoadingPage, reactRouterProvider } from 'react-admin';
import { deferred } from '../../client/shell/deferred.tsx';
import { CART_PAGE, SEARCH_PAGE, SHOP_PAGE } from './shop-query.ts';

// The router react-admin runs (its default): its routes must be its own Route elements.
const { Route } = reactRouterProvider;

const ShopPage = deferred(() => import('./ShopPage.tsx').then((m) => m.ShopPage), <LoadingPage />);
const SearchResultsPage = deferred(() => import('./SearchResultsPage.tsx').then((m) => m.SearchResultsPage), <LoadingPage />);
const CartPage = deferred(() => import('./CartPage.tsx').then((m) => m.CartPage), <LoadingPage />);

export const shopRoutes = (
  <CustomRoutes noLayout key="shop">
    <Route path={SHOP_PAGE} element={<ShopPage />} />
    <Route path={SEARCH_PAGE} element={<SearchResultsPage />} />
    <Route path={CART_PAGE} element={<CartPage />} />
  </CustomRoutes>
);

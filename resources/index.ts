/** Every manifest, registered once. Client, server, migrations and the spec check all start here. */
import { createRegistry } from '../src/manifest/index.ts';
import { categories, childCategories, subCategories, subChildCategories } from './catalog.ts';
import {
  adminMenus,
  banners,
  blogCategories,
  blogMessages,
  comments,
  footerMenus,
  homeSections,
  notices,
  pages,
  qrCodes,
  siteSettings,
  socialLinks,
  topCategories,
} from './content.ts';
import { cities, countries, currencies } from './places.ts';
import { users } from './people.ts';
import { auditLog, media, recycleBin } from './system.ts';

export const registry = createRegistry([
  categories,
  childCategories,
  subCategories,
  subChildCategories,
  topCategories,
  qrCodes,
  banners,
  homeSections,
  footerMenus,
  pages,
  notices,
  socialLinks,
  blogCategories,
  blogMessages,
  comments,
  currencies,
  countries,
  cities,
  users,
  adminMenus,
  siteSettings,
  media,
  recycleBin,
  auditLog,
]);

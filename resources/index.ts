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
import { accountReplacements, agents, dealers, sellers } from './accounts.ts';
import { agentDocuments, dealerDocuments, sellerDocuments } from './account-documents.ts';
import { emailHistory } from './email.ts';
import { referrals } from './referrals.ts';
import { supportTypes, supportUrgencies } from './support.ts';
import { products, siteCommissions } from './products.ts';
import { auditLog, jobRuns, media, recycleBin } from './system.ts';
import { notifications } from './notifications.ts';
import { pushSubscriptions } from './push.ts';
import { cartItems } from './cart.ts';
import { paymentMethods, vendorPaymentMethods } from './payments.ts';
import { videoLists } from './videos.ts';

export const registry = createRegistry([
  categories,
  childCategories,
  subCategories,
  subChildCategories,
  products,
  siteCommissions,
  paymentMethods,
  vendorPaymentMethods,
  topCategories,
  qrCodes,
  banners,
  homeSections,
  footerMenus,
  pages,
  notices,
  socialLinks,
  videoLists,
  blogCategories,
  blogMessages,
  comments,
  currencies,
  countries,
  cities,
  users,
  agents,
  dealers,
  sellers,
  sellerDocuments,
  dealerDocuments,
  agentDocuments,
  accountReplacements,
  emailHistory,
  referrals,
  supportTypes,
  supportUrgencies,
  adminMenus,
  siteSettings,
  media,
  recycleBin,
  auditLog,
  jobRuns,
  notifications,
  pushSubscriptions,
  cartItems,
]);

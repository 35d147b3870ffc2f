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
import { chatGroups, supportReplies, supportRequests, supportTeam } from './support-requests.ts';
import { products, siteCommissions } from './products.ts';
import { auditLog, jobRuns, media, recycleBin } from './system.ts';
import { notificationReads, notifications } from './notifications.ts';
import { pushSubscriptions } from './push.ts';
import { cartItems } from './cart.ts';
import { checkouts, orders } from './orders.ts';
import { payouts } from './payouts.ts';
import { ledgerEntries } from './ledger.ts';
import { paymentMethods, vendorPaymentMethods } from './payments.ts';
import { videoLists } from './videos.ts';
import { auctionBids, auctions } from './auctions.ts';
import { liveSellOrders, liveSells } from './live-sell.ts';
import { jobApplications, jobs } from './jobs.ts';

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
  supportRequests,
  supportReplies,
  supportTeam,
  chatGroups,
  jobs,
  jobApplications,
  adminMenus,
  siteSettings,
  media,
  recycleBin,
  auditLog,
  jobRuns,
  notifications,
  notificationReads,
  pushSubscriptions,
  cartItems,
  orders,
  checkouts,
  payouts,
  ledgerEntries,
  auctions,
  auctionBids,
  liveSells,
  liveSellOrders,
]);

/**
 * Demo site content and reference data for a first start (called by `seedIfEmpty`, inside its
 * transaction). Rows are written straight with Kysely, as the category tree is, but every row is
 * valid data for its resource: tests/unit/seed-content.test.ts judges each one by the field rules of
 * the resource's create dialog.
 *
 * - `seedCountries`: the whole country table (src/domain/countries.ts), all active (status 1). It is
 *   reference data, so it is seeded on every first start, catalogue or not.
 * - `seedContent`: top categories, banners, social links, admin menus, blog categories, messages and
 *   comments, home sections, footer menus, pages, notices, site settings (with the
 *   'delivery-time-notice' that `GET /site-settings/delivery-time-notice` reads), cities, currencies
 *   and the default currency setting. Needs the countries (cities and currencies refer to them).
 *
 * Images are the product's own fallback '/logo.jpg' (spec §2): there is nothing uploaded yet, and the
 * host an absolute URL would need is not known at seed time.
 */
import type { Registry } from '../../manifest/index.ts';
import { COUNTRIES } from '../../domain/countries.ts';
import { slugify } from '../../domain/slug.ts';
import { DEFAULT_VIDEO_API_URL, VIDEO_SETTINGS } from '../../domain/videos.ts';
import { newId } from '../db/id.ts';
import type { Db, Row } from '../db/types.ts';
import { columnsOf } from '../db/tables.ts';
import { setSetting } from '../settings/index.ts';

/** `createdAt` and `updatedAt` of every seeded row. */
export interface Stamp {
  createdAt: string;
  updatedAt: string;
}

const IMAGE = '/logo.jpg';

/** The 'delivery-time-notice' site setting's demo text. */
export const DELIVERY_TIME_NOTICE = 'Orders ship within 2–4 business days.';

/**
 * Inserts rows into a resource's table, each with a fresh id and the stamp; refuses a key that is not
 * a column of the resource (a renamed field fails here, at the first start, not as a missing value).
 */
async function insert(trx: Db, registry: Registry, table: string, rows: Row[], stamp: Stamp): Promise<Row[]> {
  const columns = new Set(columnsOf(registry.resource(table)).map((c) => c.name));
  const full = rows.map((row) => {
    for (const key of Object.keys(row))
      if (!columns.has(key)) throw new Error(`seed: ${table} has no column '${key}'`);
    return { id: newId(), ...row, ...stamp };
  });
  for (let i = 0; i < full.length; i += 200) await trx.insertInto(table).values(full.slice(i, i + 200)).execute();
  return full;
}

/** Every country of the table, active. */
export async function seedCountries(trx: Db, registry: Registry, stamp: Stamp) {
  await insert(
    trx,
    registry,
    'countries',
    COUNTRIES.map((c) => ({ name: c.name, code: c.code, code3: c.code3, status: 1 })),
    stamp,
  );
}

const topCategoryNames: [name: string, status: 'PUBLISHED' | 'DRAFT'][] = [
  ['Electronics', 'PUBLISHED'],
  ['Fashion', 'PUBLISHED'],
  ['Home and Garden', 'PUBLISHED'],
  ['Health and Beauty', 'PUBLISHED'],
  ['Sports', 'DRAFT'],
];

const socialLinks: [name: string, link: string, type: string][] = [
  ['Marketplace on Facebook', 'https://www.facebook.com/marketplace.demo', 'facebookpage'],
  ['Marketplace Sellers Group', 'https://www.facebook.com/groups/marketplace.demo.sellers', 'facebookgroup'],
  ['Customer care WhatsApp', '+8801700000000', 'whatsapp'],
  ['Marketplace on Instagram', 'https://www.instagram.com/marketplace.demo', 'instagram'],
  ['Marketplace on YouTube', 'https://www.youtube.com/@marketplace.demo', 'youtube'],
  ['Marketplace on LinkedIn', 'https://www.linkedin.com/company/marketplace-demo', 'linkedin'],
  ['Marketplace on TikTok', 'https://www.tiktok.com/@marketplace.demo', 'tiktok'],
];

/**
 * Admin shortcuts beside the generated menu: filtered views of lists, and outside links. react-admin
 * routes are `/<resource name>`, and a list takes its filter from the `filter` query parameter.
 */
const adminMenus: [group: string, name: string, href: string][] = [
  ['Shortcuts', 'Draft top categories', `/topCategories?filter=${encodeURIComponent('{"status":"DRAFT"}')}`],
  ['Shortcuts', 'Active currencies', `/currencies?filter=${encodeURIComponent('{"status":1}')}`],
  ['Shortcuts', 'Active home sections', `/homeSections?filter=${encodeURIComponent('{"isActive":true}')}`],
  ['Shortcuts', 'Warning notices', `/notices?filter=${encodeURIComponent('{"type":"warning"}')}`],
  ['Help', 'react-admin documentation', 'https://marmelab.com/react-admin/documentation.html'],
  ['Help', 'Specification', 'https://example.com/marketplace/spec'],
];

const footerMenus: [group: string, name: string, href: string][] = [
  ['Company', 'About us', '/pages/about'],
  ['Company', 'Blog', '/blog'],
  ['Company', 'Support', '/support-team'],
  ['Legal', 'Privacy policy', '/pages/privacy'],
  ['Legal', 'Terms of service', '/pages/terms'],
];

/** Small, inert HTML: headings, paragraphs and lists only (no scripts, styles, links or handlers). */
const pages: [slug: string, title: string, content: string][] = [
  [
    'about',
    'About us',
    '<h2>About us</h2><p>We bring sellers, dealers and agents together in one marketplace, so buyers find what they need at a fair price.</p>',
  ],
  [
    'privacy',
    'Privacy policy',
    '<h2>Privacy policy</h2><p>We keep only the data we need to deliver your orders.</p><ul><li>We never sell your data.</li><li>You may ask us to delete your account at any time.</li></ul>',
  ],
  [
    'terms',
    'Terms of service',
    '<h2>Terms of service</h2><p>By using the marketplace you agree to these terms.</p><ol><li>Sellers describe their products truthfully.</li><li>Buyers pay for what they order.</li></ol>',
  ],
];

/** Inserts the demo content. The countries must be there already. */
export async function seedContent(trx: Db, registry: Registry, stamp: Stamp) {
  const add = (table: string, rows: Row[]) => insert(trx, registry, table, rows, stamp);

  await add(
    'topCategories',
    topCategoryNames.map(([name, status], i) => {
      const slug = slugify(name, { unique: false });
      // Spec §3: higher order is listed first, so the first one gets the highest.
      return { name, image: IMAGE, href: slug, status, order: topCategoryNames.length - i, slug };
    }),
  );

  // An empty link means the site's home page (the banner field's `whenEmpty: 'hostRoot'`, spec §9
  // "Default banner link is the product host root"); the host is filled in when an admin saves it.
  await add('banners', [
    { name: 'Summer sale', href: '', url: IMAGE, position: 1 },
    { name: 'New arrivals', href: '', url: IMAGE, position: 2 },
    { name: 'Free shipping week', href: '', url: IMAGE, position: 3 },
  ]);

  await add('socialLinks', socialLinks.map(([name, link, type]) => ({ name, link, type })));
  await add('adminMenus', adminMenus.map(([group, name, href]) => ({ name, group, href })));

  await add('blogCategories', [
    { name: 'Buying guides', image: IMAGE, status: 'ACTIVE' },
    { name: 'Seller stories', image: IMAGE, status: 'INACTIVE' },
  ]);
  await add('blogMessages', [
    {
      name: 'Ayesha Rahman',
      designation: 'Seller, Dhaka',
      image: IMAGE,
      message: 'Listing my shop took an afternoon, and the first orders came in the same week.',
    },
    {
      name: 'Michael Brown',
      designation: 'Customer, Chicago',
      image: IMAGE,
      message: 'Clear prices, quick delivery and a support team that actually answers.',
    },
  ]);
  await add('comments', [
    { blog: 'welcome', name: 'Nadia', content: 'Great to see the marketplace open. Good luck!' },
    { blog: 'welcome', name: 'Tom', content: 'Looking forward to the first sales.' },
    { blog: 'shipping-guide', name: 'Karim', content: 'Very helpful, thank you for the packing tips.' },
    { blog: 'shipping-guide', name: 'Emily', content: 'Do you ship to Canada as well?' },
  ]);

  await add('homeSections', [
    { name: 'Hero banners', type: 'banners', order: 1, isActive: 1 },
    { name: 'Top categories', type: 'categories', order: 2, isActive: 1 },
    { name: 'Featured products', type: 'products', order: 3, isActive: 1 },
    { name: 'From the blog', type: 'blog', order: 4, isActive: 0 },
  ]);
  await add('footerMenus', footerMenus.map(([group, name, href], i) => ({ name, href, group, order: i + 1 })));
  await add('pages', pages.map(([slug, title, content]) => ({ title, slug, content })));
  await add('notices', [
    { type: 'info', title: 'Welcome', message: 'Welcome to the marketplace. Sign in to track your orders.' },
    { type: 'warning', title: 'Holiday delays', message: 'Deliveries may take a few extra days around public holidays.' },
  ]);
  await add('siteSettings', [
    { name: 'delivery-time-notice', value: DELIVERY_TIME_NOTICE },
    { name: 'site-name', value: 'Marketplace' },
    { name: 'support-email', value: 'support@demo.test' },
    // The video list's provider (src/domain/videos.ts): the key and channel are the site's own to set.
    { name: VIDEO_SETTINGS.url, value: DEFAULT_VIDEO_API_URL },
    { name: VIDEO_SETTINGS.key, value: '' },
    { name: VIDEO_SETTINGS.channel, value: '' },
  ]);

  // How buyers pay (resources/payments.ts): each method's content is what the buyer follows at checkout.
  await add('paymentMethods', [
    { name: 'bKash', content: 'Send money to 01700-000000 (merchant), then upload the confirmation screen as your proof of payment.' },
    { name: 'Bank transfer', content: 'Pay to City Bank, account 0123-456789 (Marketplace Ltd), Gulshan branch; put your order id in the reference and upload the receipt.' },
  ]);
  // Where the demo seller wants its payouts sent (the seller's own accounts).
  const seller = await trx.selectFrom('users').select('id').where('email', '=', 'seller@demo.test').executeTakeFirst();
  if (seller)
    await add('vendorPaymentMethods', [
      { name: 'Bank account', content: 'Dutch-Bangla Bank, account 2011-000-12345, holder Demo Seller, Motijheel branch.', userId: seller.id },
      { name: 'bKash', content: 'Personal 01800-000000 (Demo Seller).', userId: seller.id },
    ]);

  // Cities hold the country's alpha-2 code (the field references countries by `code`).
  const cities: [country: string, names: string[]][] = [
    ['BD', ['Dhaka', 'Chattogram', 'Khulna', 'Rajshahi', 'Sylhet']],
    ['US', ['New York', 'Los Angeles', 'Chicago', 'Houston']],
  ];
  await add('cities', cities.flatMap(([country, names]) => names.map((name) => ({ name, country }))));

  // Currencies hold the country's alpha-3 code (the field references countries by `code3`, spec §5).
  const [usd] = await add('currencies', [
    { name: 'US Dollar', symbal: '$', code: 'USD', rate: 1, country: 'USA', status: 1 },
    { name: 'Bangladeshi Taka', symbal: '৳', code: 'BDT', rate: 110, country: 'BGD', status: 1 },
    { name: 'Euro', symbal: '€', code: 'EUR', rate: 0.92, country: 'DEU', status: 1 },
    { name: 'Pound Sterling', symbal: '£', code: 'GBP', rate: 0.79, country: 'GBR', status: 0 },
  ]);
  const key = registry.resource('currencies').defaultRecord?.key ?? 'defaultCurrency';
  await setSetting(trx, key, usd.id as string);
}

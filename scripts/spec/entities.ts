/**
 * Spec §3: every entity and its fields, spelled as the spec spells them (symbal, ageentFormDealerCommission,
 * siteCommissin). Where a row names two entities it is split; the "Other records" row gives one entity per
 * record (social link type and currency status are already fields of their rows); the entities whose
 * field lists are "not shown" close the list with `fieldsShown: false`.
 */
import type { SpecEntity } from './types.ts';

type Entry = Omit<SpecEntity, 'fieldsShown'>;
const shown = (entries: Entry[]): SpecEntity[] => entries.map((e) => ({ fieldsShown: true, ...e }));
const notShown = (names: (string | { name: string; aliases: string[] })[]): SpecEntity[] =>
  names.map((n) => ({ ...(typeof n === 'string' ? { name: n } : n), fields: [], fieldsShown: false }));

/** §7 sends every level's parent as `category`; §3 calls it "parent … id". */
const parentNote = "The parent id is sent as 'category' (§7).";

export const entities: readonly SpecEntity[] = [
  ...shown([
    { name: 'Category', fields: ['id', 'name', 'order'] },
    { name: 'Child category', fields: ['name', 'image', 'slug', 'category'], note: parentNote },
    { name: 'Sub category', fields: ['name', 'image', 'slug', 'category'], note: parentNote },
    { name: 'Sub-child category', fields: ['name', 'slug', 'category'], note: parentNote },
    { name: 'QR code', fields: ['id', 'title', 'qrcode'] },
    { name: 'Job', fields: ['id', 'title', 'jobApplication'] },
    { name: 'Job application', fields: ['id', 'whatsapp', 'cvresume', 'message', 'country'] },
    { name: 'Top category', fields: ['id', 'name', 'image', 'href', 'order', 'status', 'slug'] },
    {
      name: 'Agent',
      fields: ['id', 'name', 'email', 'phone', 'city', 'district', 'country', 'fulladdress', 'agentId', 'commission'],
    },
    { name: 'Dealer', fields: ['id', 'commission', 'dealerId'] },
    {
      name: 'Product (commission view)',
      aliases: ['Product'],
      fields: [
        'id',
        'name',
        'sellerprice',
        'price',
        'agentSiteCommission',
        'ageentFormDealerCommission',
        'dealerSiteCommission',
        'siteCommission',
        'dealerCommissionFromSeller',
        'comissionStatus',
        'commissionRejectReason',
      ],
    },
    { name: 'Payment method (admin)', aliases: ['Payment method'], fields: ['id', 'name', 'content'] },
    { name: 'Vendor payment method', fields: ['id', 'name', 'content'] },
    {
      name: 'Order',
      fields: [
        'id',
        'orderId',
        'user',
        'address',
        'products',
        'totalamount',
        'paymentmethod',
        'paidstatus',
        'status',
        'senderinfo',
        'senderfile',
      ],
      note: 'user, address, products and paymentmethod are nested objects.',
    },
    { name: 'Auction', fields: ['id', 'productId', 'product', 'price', 'qty', 'startdate', 'enddate'] },
    { name: 'Payout request', aliases: ['Payout'], fields: ['amount', 'name', 'details', 'order'] },
    { name: 'Payout update', aliases: ['Payout'], fields: ['invoiceFile', 'invoiceDetails', 'status'] },
    { name: 'Social link', fields: ['id', 'name', 'link', 'type'] },
    { name: 'Blog category', fields: ['id', 'name', 'image', 'status'] },
    { name: 'Blog message', fields: ['id', 'name', 'designation', 'image', 'message'] },
    { name: 'Admin menu', fields: ['id', 'name', 'group', 'href'] },
    { name: 'Live-sell order', fields: ['id', 'orders', 'status', 'amount'] },
    // §3 "Support type / urgency": two entities with one field list.
    { name: 'Support type', aliases: ['Support or help type'], fields: ['id', 'name'] },
    { name: 'Support urgency', aliases: ['Support or help urgency'], fields: ['id', 'name'] },
    // The request as asked (`POST /support-panel`); it is kept as the Ticket (resources/support-requests.ts).
    { name: 'Support chat request', aliases: ['Ticket'], fields: ['product', 'content'] },
    {
      name: 'Agent or dealer replacement',
      aliases: ['Agent replacement', 'Dealer replacement', 'Replacement'],
      fields: ['name', 'image', 'email', 'password'],
    },
    { name: 'Currency', fields: ['id', 'name', 'symbal', 'code', 'rate', 'country', 'status'] },
    { name: 'Country', fields: ['status'], note: 'Other fields not shown.' },
    { name: 'Banner', fields: ['id', 'name', 'href', 'url', 'position'] },
    {
      name: 'User profile',
      aliases: ['User', 'Profile'],
      fields: ['name', 'email', 'image', 'whatsapp', 'country', 'designation', 'inviteCode'],
    },
    { name: 'Support team member', fields: ['id', 'name', 'role', 'avatar', 'number'] },
    {
      name: 'Notification',
      fields: ['id', 'title', 'message', 'type', 'isRead', 'userId', 'metadata'],
      note: 'The spec names metadata.category.',
    },
    { name: 'Chat group', fields: ['name', 'userId'] },
    {
      name: 'Cart item',
      fields: [
        'id',
        'name',
        'price',
        'quantity',
        'images',
        'slug',
        'discount',
        'agentSiteCommission',
        'dealerSiteCommission',
        'agentFormDealerCommission',
        'siteCommissin',
        'dealerCommissionFromSeller',
        'sellerPrice',
      ],
    },
    { name: 'Push subscription payload', fields: ['subscription', 'userAgent', 'endpoint'] },
    // §3 "Slider entries": one shape per slider type.
    { name: 'Admin slider entry', fields: ['name', 'country', 'image'] },
    { name: 'Agent slider entry', fields: ['name', 'image', 'country', 'city', 'district', 'agentId'] },
    { name: 'Dealer slider entry', fields: ['name', 'city', 'country', 'district', 'image', 'dealerId'] },
    { name: 'Seller slider entry', fields: ['shopname', 'country', 'image'], note: "shopname is shown as name; image is the user's." },
    // §3 "Other records".
    { name: 'Home section', fields: ['isActive', 'order'] },
    { name: 'Site commission', fields: ['message'], note: 'The reject message (§7 POST /site-commissions/reject/{id}).' },
    { name: 'Ticket', fields: ['type', 'urgency', 'reply'] },
    { name: 'Notice', fields: ['type'] },
    { name: 'Page', fields: ['slug'] },
    { name: 'Video list', fields: ['data'], note: 'A stored record holding a JSON string.' },
    { name: 'Referral', fields: ['bref'], note: 'Kept in browser storage.' },
  ]),
  ...notShown([
    'Auction bid',
    // §3 names them in the plural; one resource holds each kind's documents, labelled in the singular.
    { name: 'Seller documents', aliases: ['Seller document'] },
    { name: 'Dealer documents', aliases: ['Dealer document'] },
    { name: 'Agent documents', aliases: ['Agent document'] },
    'Live-sell',
    'Email history',
    'Footer menu',
    // The admin's payment methods, at `/payment-settings` (resources/payments.ts).
    { name: 'Payment settings', aliases: ['Payment method'] },
    'Comment',
    'City',
  ]),
];

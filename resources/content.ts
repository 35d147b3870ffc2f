/**
 * Site content the admin manages (spec §3, §5, §7, §8): QR codes, top categories, banners, social
 * links, admin menus, blogs (categories, messages, comments), home sections, footer menus, pages,
 * notices and site settings.
 */
import { z } from 'zod';
import { defineResource, dialog, field, read, rules } from '../src/manifest/index.ts';

const access = { read: 'signedIn', write: ['admin'] } as const;

export const qrCodes = defineResource({
  name: 'qrCodes',
  label: 'QR code',
  plural: 'QR codes',
  access,
  title: 'title',
  menu: { group: 'Content', icon: 'QrCode2' },
  fields: [
    field.text('title', { rule: rules.text(1, 'QrCode name is required!'), list: true, searchable: true }),
    field.image('qrcode', {
      label: 'QR code',
      rule: rules.text(2, 'qrcode is required!'),
      list: true,
      upload: { endpoint: 'pagefile' },
      drawn: { from: 'title', as: 'qrcode' },
    }),
  ],
  sort: { field: 'title', order: 'ASC' },
  reads: {
    // §7 names no QR code read; the list screen needs one.
    list: read.list('GET /qr-codes'),
  },
  dialogs: {
    createQrcode: dialog.create({
      pick: ['title', 'qrcode'],
      call: 'POST /qr-codes',
      success: 'QR code created successfully.',
      failure: 'Unable to create qrcode!',
    }),
    updateQrcode: dialog.update({
      pick: ['title', 'qrcode'],
      call: 'PATCH /qr-codes/{id}',
      success: 'QR code updated successfully.',
      failure: 'Unable to updated qrcode!',
    }),
    deleteQrcode: dialog.remove({
      call: 'DELETE /qr-codes/{id}',
      missing: 'QR code is missing.',
      success: 'QR code deleted successfully.',
    }),
    qrcodedeatils: dialog.details({ show: ['title', 'qrcode'], view: 'qrcode' }),
  },
});

export const TOP_CATEGORY_STATUS = ['PUBLISHED', 'DRAFT'] as const;

export const topCategories = defineResource({
  name: 'topCategories',
  label: 'Top category',
  plural: 'Top categories',
  access,
  menu: { group: 'Catalogue', icon: 'Star' },
  fields: [
    field.text('name', { rule: rules.text(1, 'Top category name is required!'), list: true, searchable: true }),
    field.image('image', {
      rule: rules.text(3, 'Image is required!'),
      list: true,
      upload: { endpoint: 'topcategories' },
      hint: 'Image size 150x100 (tablet and desktop), 90x80 (mobile)',
    }),
    // Filled from the name's slug ('summer-sale'): a path relative to the site, which `rules.link` takes.
    field.text('href', { rule: rules.link('href is required!', { min: 4 }), list: true, fill: { from: 'name', by: 'slug' } }),
    field.select('status', TOP_CATEGORY_STATUS, {
      rule: z.enum(TOP_CATEGORY_STATUS, { error: 'Status must be PUBLISHED or DRAFT.' }),
      choices: [
        { value: 'PUBLISHED', label: 'Published', tone: 'success' },
        { value: 'DRAFT', label: 'Draft' },
      ],
      default: 'PUBLISHED',
      list: true,
    }),
    field.number('order', {
      rule: z.number({ error: 'Order must be a number.' }),
      default: 0,
      emptyShownAs: 0,
      list: true,
      storage: 'integer',
    }),
    field.slug('slug', 'name'),
  ],
  // Spec §3: higher order listed first.
  sort: { field: 'order', order: 'DESC' },
  reads: {
    list: read.list('GET /top-categories'),
    bySlug: read.one('GET /top-categories/{slug}', { by: 'slug' }),
  },
  dialogs: {
    addtopcategory: dialog.create({
      pick: ['name', 'image', 'href', 'status', 'order'],
      call: 'POST /top-categories',
      success: 'Top category created successfully.',
      failure: 'Unable to create top category!',
    }),
    updateTopCategory: dialog.update({
      pick: ['name', 'image', 'href', 'status', 'order'],
      call: 'PATCH /top-categories/{id}',
      success: 'Top category updated successfully.',
      failure: 'Unable to update top category!',
    }),
    deleteTopCategory: dialog.remove({
      call: 'DELETE /top-categories/{id}/recycle',
      missing: 'Top category is missing.',
      success: 'Top category moved to the recycle bin.',
    }),
  },
});

export const banners = defineResource({
  name: 'banners',
  label: 'Banner',
  plural: 'Banners',
  access,
  menu: { group: 'Content', icon: 'ViewCarousel' },
  fields: [
    field.text('name', { rule: rules.optionalText(), list: true, searchable: true }),
    field.url('href', {
      label: 'Link',
      rule: z.union([z.literal(''), rules.link('Inavlid URL.', { invalid: 'Inavlid URL.' })]).optional(),
      hint: 'Left empty, the banner links to the site’s home page.',
      whenEmpty: 'hostRoot',
      list: true,
    }),
    field.image('url', {
      label: 'Image',
      rule: rules.webUrl('Inavlid Image URL.'),
      upload: { endpoint: 'banners' },
      hint: 'Image size 2500x700, one file',
      list: true,
    }),
    field.number('position', { rule: z.number({ error: 'Position is required!' }).int(), default: 0, list: true, storage: 'integer' }),
  ],
  title: 'name',
  // Spec §7: the list is ordered by position.
  sort: { field: 'position', order: 'ASC' },
  reads: { list: read.list('GET /banners') },
  dialogs: {
    'add-banner': dialog.create({
      pick: ['name', 'href', 'url', 'position'],
      call: 'POST /banners',
      success: 'Banner created successfully.',
      failure: 'Unable to create banner!',
    }),
    'update-banner': dialog.update({
      pick: ['name', 'href', 'url', 'position'],
      call: 'PATCH /banners/{id}',
      success: 'Banner updated successfully.',
      failure: 'Unable to update banner!',
      // Spec §5: the image URL is required on create; an update may keep the one it has.
      optional: ['url'],
    }),
    deleteBanner: dialog.remove({
      call: 'DELETE /banners/{id}',
      missing: 'Banner is missing.',
      success: 'Banner deleted successfully.',
    }),
  },
});

/** Spec §3: the eleven social link types. */
export const SOCIAL_TYPES = [
  'facebookprofile',
  'facebookpage',
  'facebookgroup',
  'pinterest',
  'whatsapp',
  'instagram',
  'linkedin',
  'wechat',
  'twitter',
  'youtube',
  'tiktok',
] as const;

/** How people write each social link type. */
const SOCIAL_TYPE_LABELS: Record<(typeof SOCIAL_TYPES)[number], string> = {
  facebookprofile: 'Facebook profile',
  facebookpage: 'Facebook page',
  facebookgroup: 'Facebook group',
  pinterest: 'Pinterest',
  whatsapp: 'WhatsApp',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  wechat: 'WeChat',
  twitter: 'Twitter',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};

export const socialLinks = defineResource({
  name: 'socialLinks',
  label: 'Social link',
  plural: 'Social links',
  access,
  menu: { group: 'Content', icon: 'Share' },
  fields: [
    field.text('name', { rule: rules.text(3, 'Name is required.'), list: true, searchable: true }),
    // A URL, or the number a WhatsApp or WeChat link takes ('+8801700000000').
    field.text('link', { label: 'Link / Number', rule: rules.link('Link / Number is required.', { min: 3 }), list: true }),
    field.select('type', SOCIAL_TYPES, {
      label: 'Social Media Type',
      choices: SOCIAL_TYPES.map((value) => ({ value, label: SOCIAL_TYPE_LABELS[value] })),
      rule: z.enum(SOCIAL_TYPES, { error: 'Social Media Type is required.' }),
      list: true,
    }),
  ],
  reads: {
    // `GET /social-links?type={group}` and `GET /social-links/` with an optional type are one read.
    list: read.list('GET /social-links/', { scope: { field: 'type', param: 'type' } }),
  },
  list: { failure: { title: 'Opps', message: 'Something went wrong.' } },
  dialogs: {
    createSocialMediaLinkModal: dialog.create({
      pick: ['name', 'link', 'type'],
      call: 'POST /social-links',
      success: 'Social link created successfully.',
      failure: 'Unable to create social link!',
    }),
    updateSocialMediaLink: dialog.update({
      pick: ['name', 'link', 'type'],
      call: 'PATCH /social-links/{id}',
      success: 'Social link updated successfully.',
      failure: 'Unable to update social link!',
    }),
    useSocialDetails: dialog.details({ show: ['name', 'link', 'type'] }),
  },
});

export const adminMenus = defineResource({
  name: 'adminMenus',
  label: 'Admin menu',
  plural: 'Admin menus',
  access: { read: ['admin'], write: ['admin'] },
  menu: { group: 'Settings', icon: 'MenuOpen' },
  fields: [
    field.text('name', {
      rule: rules.notGeneral('Menu name is required!', "Menu name cannot be 'general'"),
      list: true,
      searchable: true,
    }),
    field.text('group', { rule: rules.text(3, 'Group is required!'), list: true, filterable: true }),
    field.text('href', { rule: rules.link('href is required!', { min: 3 }), list: true, hint: 'A path in this admin (/banners) or a full URL.' }),
  ],
  sort: { field: 'group', order: 'ASC' },
  reads: { list: read.list('GET /admin-menus/') },
  dialogs: {
    addAdminMenu: dialog.create({
      pick: ['name', 'group', 'href'],
      call: 'POST /admin-menus/',
      success: 'Admin menu created successfully.',
      failure: 'Unable to create AdminMenu!',
    }),
    updateAdminMenu: dialog.update({
      pick: ['name', 'group', 'href'],
      call: 'PATCH /admin-menus/{id}',
      success: 'Admin menu updated successfully.',
      failure: 'Unable to Update AdminMenu!',
    }),
  },
});

/** The data-status enumeration blog categories use (spec §3 names it, not its values). */
export const DATA_STATUS = ['ACTIVE', 'INACTIVE'] as const;

export const blogCategories = defineResource({
  name: 'blogCategories',
  label: 'Blog category',
  plural: 'Blog categories',
  access,
  menu: { group: 'Blog', icon: 'Folder' },
  fields: [
    field.text('name', {
      rule: rules.notGeneral('Blog category name is required!', "Blog category cannot be 'general'"),
      list: true,
      searchable: true,
    }),
    field.image('image', { rule: rules.text(5, 'Image is required!'), list: true, upload: { endpoint: 'blogcategory' } }),
    field.select('status', DATA_STATUS, {
      rule: z.enum(DATA_STATUS, { error: 'Status must be ACTIVE or INACTIVE.' }),
      choices: [
        { value: 'ACTIVE', label: 'Active', tone: 'success' },
        { value: 'INACTIVE', label: 'Inactive' },
      ],
      default: 'ACTIVE',
      list: true,
    }),
  ],
  reads: { list: read.list('GET /blogs/categories') },
  dialogs: {
    createBlogCategory: dialog.create({
      pick: ['name', 'image', 'status'],
      call: 'POST /blogs/categories',
      success: 'Blog category created successfully.',
      failure: 'Unable to create blog category!',
    }),
    updateBlogCategory: dialog.update({
      pick: ['name', 'image', 'status'],
      call: 'PATCH /blogs/categories/{id}',
      success: 'Blog category updated successfully.',
      failure: 'Unable to update blog category!',
    }),
  },
});

export const blogMessages = defineResource({
  name: 'blogMessages',
  label: 'Blog message',
  plural: 'Blog messages',
  access,
  menu: { group: 'Blog', icon: 'FormatQuote' },
  fields: [
    field.text('name', {
      rule: rules.notGeneral('Name is required!', "Name cannot be 'general'"),
      list: true,
      searchable: true,
    }),
    field.text('designation', { rule: rules.text(3, 'Designation is required!'), list: true }),
    field.image('image', { rule: rules.text(3, 'Image is required!'), list: true, upload: { endpoint: 'blogcategory' } }),
    field.textarea('message', { rule: rules.text(3, 'Message is required!') }),
  ],
  reads: { list: read.list('GET /blogs/messages') },
  dialogs: {
    createNewBlogMessage: dialog.create({
      pick: ['name', 'designation', 'image', 'message'],
      call: 'POST /blogs/messages',
      success: 'Message created successfully.',
      failure: 'Unable to create message!',
    }),
    updateBlogMessage: dialog.update({
      pick: ['name', 'designation', 'image', 'message'],
      call: 'PUT /blogs/messages/{id}',
      success: 'Message updated successfully.',
      failure: 'Unable to update message!',
    }),
  },
});

export const comments = defineResource({
  name: 'comments',
  label: 'Comment',
  plural: 'Blog comments',
  access,
  menu: { group: 'Blog', icon: 'Comment' },
  fields: [
    field.text('blog', { label: 'Blog (slug)', list: true, filterable: true }),
    field.text('name', { list: true, searchable: true }),
    field.textarea('content', { label: 'Comment', rule: rules.text(1, 'Comment is required!'), list: true, searchable: true }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /comments'),
    byBlog: read.list('GET /comments/blogs/{slug}', { scope: { field: 'blog', param: 'slug' } }),
  },
  dialogs: {
    updateComment: dialog.update({
      pick: ['content'],
      call: 'PUT /comments/{id}',
      success: 'Comment updated successfully.',
      failure: 'Unable to update comment!',
    }),
    deleteComment: dialog.remove({
      call: 'DELETE /comments/{id}',
      missing: 'Comment is missing.',
      success: 'Comment deleted successfully.',
    }),
  },
});

export const homeSections = defineResource({
  name: 'homeSections',
  label: 'Home section',
  plural: 'Home sections',
  access,
  menu: { group: 'Content', icon: 'Dashboard' },
  fields: [
    field.text('name', { rule: rules.text(1, 'Section name is required!'), list: true, searchable: true }),
    field.text('type', { rule: rules.optionalText(), list: true, hint: 'What the section shows: products, categories, banners…' }),
    field.number('order', { rule: z.number({ error: 'Order must be a number.' }).int(), default: 0, list: true, storage: 'integer' }),
    field.boolean('isActive', {
      label: 'Active',
      rule: z.boolean(),
      choices: [
        { value: true, label: 'Active', tone: 'success' },
        { value: false, label: 'Inactive' },
      ],
      default: true,
      list: true,
      filterable: true,
    }),
  ],
  sort: { field: 'order', order: 'ASC' },
  reads: {
    list: read.list('GET /api/home-sections'),
    one: read.one('GET /api/home-sections/{id}'),
  },
  list: {
    reorder: { call: 'PATCH /api/home-sections/reorder', key: 'sections', field: 'order' },
    toggle: 'isActive',
  },
  dialogs: {
    createHomeSection: dialog.create({
      pick: ['name', 'type', 'order', 'isActive'],
      call: 'POST /api/home-sections',
      success: 'Home section created successfully.',
      failure: 'Unable to create home section!',
    }),
    // Spec §7: `PUT /home-sections/{id}` both edits and switches isActive: the list's switch sends the row.
    updateHomeSection: dialog.update({
      pick: ['name', 'type', 'order', 'isActive'],
      call: 'PUT /api/home-sections/{id}',
      success: 'Home section updated successfully.',
      failure: 'Unable to update home section!',
    }),
    deleteHomeSection: dialog.remove({
      call: 'DELETE /api/home-sections/{id}',
      missing: 'Home section is missing.',
      success: 'Home section deleted successfully.',
    }),
  },
});

export const footerMenus = defineResource({
  name: 'footerMenus',
  label: 'Footer menu',
  plural: 'Footer menus',
  access,
  menu: { group: 'Content', icon: 'Link' },
  fields: [
    field.text('name', { rule: rules.text(1, 'Name is required!'), list: true, searchable: true }),
    field.text('href', { rule: rules.link('href is required!'), list: true }),
    field.text('group', { rule: rules.text(1, 'Group is required!'), list: true, filterable: true }),
    field.number('order', { rule: z.number({ error: 'Order must be a number.' }).int(), default: 0, list: true, storage: 'integer' }),
  ],
  sort: { field: 'order', order: 'ASC' },
  reads: {
    list: read.list('GET /footer-menus/'),
    one: read.one('GET /footer-menus/{id}'),
    info: read.grouped('GET /footer-menus/footer-info', 'group'),
  },
  dialogs: {
    createFooterMenu: dialog.create({
      pick: ['name', 'href', 'group', 'order'],
      call: 'POST /footer-menus/',
      success: 'Footer menu created successfully.',
      failure: 'Unable to create footer menu!',
    }),
    // Ours, beyond the spec (which only creates and deletes them): an admin fixes a link in place.
    // Not `PATCH /footer-menus/{id}`: the spec mutates that path with DELETE only, and a second verb
    // there would contradict it (the spec check says so), so the update has a path of its own.
    updateFooterMenu: dialog.update({
      pick: ['name', 'href', 'group', 'order'],
      call: 'PATCH /footer-menus/{id}/edit',
      success: 'Footer menu updated successfully.',
      failure: 'Unable to update footer menu!',
    }),
    deleteFooterMenu: dialog.remove({
      call: 'DELETE /footer-menus/{id}',
      missing: 'Footer menu is missing.',
      success: 'Footer menu deleted successfully.',
    }),
  },
});

/** A page's address under `/pages/`: 'about', 'terms-of-service'. */
const SLUG_TEXT = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const pages = defineResource({
  name: 'pages',
  label: 'Page',
  plural: 'Pages',
  access,
  title: 'title',
  menu: { group: 'Content', icon: 'Article' },
  fields: [
    field.text('title', { rule: rules.text(1, 'Title is required!'), list: true, searchable: true }),
    field.text('slug', {
      rule: rules.text(1, 'Slug is required!').regex(SLUG_TEXT, 'A slug has lower-case letters, digits and hyphens only.'),
      list: true,
      unique: true,
    }),
    // Shown only through DOMPurify (details dialog, lists): what is stored may be any HTML.
    field.html('content', { rule: rules.text(1, 'Content is required!') }),
  ],
  reads: {
    list: read.list('GET /pages'),
    bySlug: read.one('GET /pages/{slug}', { by: 'slug' }),
  },
  dialogs: {
    pageDetails: dialog.details({ show: ['title', 'slug', 'content'] }),
    // Ours, beyond the spec (which only reads pages).
    updatePage: dialog.update({
      pick: ['title', 'slug', 'content'],
      call: 'PATCH /pages/{id}',
      success: 'Page updated successfully.',
      failure: 'Unable to update page!',
    }),
  },
});

export const notices = defineResource({
  name: 'notices',
  label: 'Notice',
  plural: 'Notices',
  access,
  title: 'title',
  menu: { group: 'Content', icon: 'Campaign' },
  fields: [
    field.text('type', { rule: rules.text(1, 'Type is required!'), list: true, filterable: true }),
    field.text('title', { rule: rules.text(1, 'Title is required!'), list: true, searchable: true }),
    field.textarea('message', { rule: rules.text(1, 'Message is required!'), list: true }),
  ],
  reads: {
    list: read.list('GET /notices/'),
    byType: read.list('GET /notices/type/{type}', { scope: { field: 'type', param: 'type' } }),
  },
  dialogs: {
    // Ours, beyond the spec (which only reads notices).
    updateNotice: dialog.update({
      pick: ['type', 'title', 'message'],
      call: 'PATCH /notices/{id}',
      success: 'Notice updated successfully.',
      failure: 'Unable to update notice!',
    }),
  },
});

export const siteSettings = defineResource({
  name: 'siteSettings',
  label: 'Site setting',
  plural: 'Site settings',
  access,
  menu: { group: 'Settings', icon: 'Tune' },
  fields: [
    // The name is what code looks a setting up by ('delivery-time-notice'): not editable in a dialog.
    field.text('name', { list: true, searchable: true, unique: true }),
    field.textarea('value', { rule: rules.optionalText(), list: true }),
  ],
  reads: {
    list: read.list('GET /site-settings'),
    one: read.one('GET /site-settings/{id}'),
    deliveryTimeNotice: read.one('GET /site-settings/delivery-time-notice', { by: 'name', value: 'delivery-time-notice' }),
  },
  dialogs: {
    // Ours, beyond the spec (which only reads settings): the value of the setting in the row.
    updateSiteSetting: dialog.update({
      pick: ['value'],
      call: 'PATCH /site-settings/{id}',
      success: 'Site setting updated successfully.',
      failure: 'Unable to update site setting!',
    }),
  },
});

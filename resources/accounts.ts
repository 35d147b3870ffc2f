/**
 * The marketplace's people beyond their accounts (spec §3 Agent, Dealer, slider entries; §5 "Agents and
 * commissions", "Replacement"; §7 "Agents, dealers, sellers"): agent, dealer and seller profiles, and the
 * replacements that hand an agent's or dealer's account to a new person.
 *
 * Every person signs in with an account in `users` (resources/people.ts); a profile is linked to it by
 * `userId` (unique), which is also the profile's owner. An agent's `name` and `email` (and a dealer's
 * `name` and `image`) are the account's, kept in step by the server's handlers
 * (src/server/accounts/), which write both in one transaction: no dialog changes one without the other.
 */
import { z } from 'zod';
import { computations } from '../src/domain/computed.ts';
import { defineResource, dialog, field, operation, read, rules, type NotifyDef } from '../src/manifest/index.ts';
import { COMMISSION_REQUIRED_MESSAGE, MAX_COMMISSION_PERCENT, parsePercent } from '../src/domain/commission.ts';
import { passwordRule } from './people.ts';

/** Spec §5: the agent's email message, used for every email of these dialogs. */
export const INVALID_EMAIL = 'enter a valid email';

/** A valid email of at least `min` characters, stored lower-cased (sign-in compares it so). */
const email = (min: number) => z.string({ error: INVALID_EMAIL }).trim().toLowerCase().min(min, INVALID_EMAIL).email(INVALID_EMAIL);
/** The same rule for an account's login wherever one is typed (sign-up, resources/self-service.ts). */
export { email as accountEmail };

/**
 * The login of the account a profile is created with (`createSeller`, `createDealer`): typed when the
 * profile is made, kept in step with the account, never edited in the profile's own forms.
 */
const login = () => field.email('email', { rule: email(2), unique: true, setOnce: true, searchable: true });

/**
 * A commission percentage (spec §5: "commission required number", "Agent commission … 'amount is
 * required!'", "Dealer commission: number input, no bound shown"): from 0 to 100 with at most 2
 * decimals, as the commission math reads percentages (src/domain/commission.ts).
 */
const commission = () =>
  field.number('commission', {
    hint: 'A percentage, from 0 to 100.',
    rule: z
      .number({ error: (issue) => (issue.input === undefined || issue.input === '' ? COMMISSION_REQUIRED_MESSAGE : 'Commission must be a number.') })
      .min(0, 'Commission cannot be negative.')
      .max(MAX_COMMISSION_PERCENT, `Commission cannot be more than ${MAX_COMMISSION_PERCENT}%.`)
      // Out of range is told above; what is left for the commission math to refuse is a third decimal.
      .refine((v) => v < 0 || v > MAX_COMMISSION_PERCENT || parsePercent(v).ok, 'Commission may have at most 2 decimals.'),
    list: true,
  });

/** The account a profile belongs to: unique (one profile per account) and the profile's owner. */
const account = () => field.reference('userId', 'users', { label: 'Account', unique: true, list: true });

/** A country picked from the country table, by its two-letter code (spec §3 Agent: "two-letter code"). */
const country = () =>
  field.reference('country', 'countries', {
    by: 'code',
    // Whether the code names a country is the reference's check ('Country does not exist.').
    rule: rules.text(2, 'Country is required!'),
    list: true,
  });

const place = (name: 'city' | 'district', label: string) =>
  field.text(name, { rule: rules.text(3, `${label} is required!`), list: true, searchable: true });

/** An image address as every image is held to (an http(s) URL or a path on this site). */
const webAddress = rules.webUrl('Image must be an http(s) URL or a path on this site.');

const phone = () => field.text('phone', { rule: rules.text(3, 'Phone is required!'), list: true, searchable: true });

/** A profile picture: uploaded like every profile picture, or left as the account's default. */
const picture = (rule?: z.ZodType) =>
  field.image('image', { rule, list: true, upload: { endpoint: 'profilepics' }, emptyShownAs: '/avatar.png' });

const agentIdSources = ['name', 'city', 'district', 'country'] as const;

export const agents = defineResource({
  name: 'agents',
  label: 'Agent',
  plural: 'Agents',
  access: { read: ['admin', 'agent'], write: ['admin'], owner: { field: 'userId', roles: { admin: 'all', agent: 'own' } } },
  menu: { group: 'People', icon: 'SupportAgent' },
  // Spec §2: replaceAgentModal and agent-login-details act on an agent, though declared elsewhere.
  list: { rowDialogs: ['replaceAgentModal', 'agent-login-details'] },
  fields: [
    field.text('name', { rule: rules.text(1, 'Agent name is required!'), list: true, searchable: true }),
    field.email('email', { rule: email(2), list: true, searchable: true, unique: true }),
    phone(),
    place('city', 'City'),
    place('district', 'District'),
    country(),
    commission(),
    field.text('fulladdress', { label: 'Full address', rule: rules.text(3, 'Full address is required!') }),
    // Spec §3/§9: made from the name, city, district and country by the display-name helper, shown
    // read-only; unique, so the server adds '-2', '-3' … to an id another agent holds.
    field.text('agentId', {
      label: 'Agent ID',
      rule: rules.text(2, 'Agent ID must be at least 2 characters.').optional(),
      computed: { by: computations.agentId, from: agentIdSources },
      readOnly: true,
      unique: true,
      list: true,
      searchable: true,
    }),
    picture(),
    account(),
  ],
  reads: {
    list: read.list('GET /agents/'),
    one: read.one('GET /agents/{id}'),
  },
  operations: {
    // Any signed-in user may look an agent up by its public id (a referral, a slider), and sees only
    // what the agent slider shows: never its email, phone, address or commission.
    public: operation('GET /agents/public/', 'publicAgent', { access: 'signedIn' }),
    // Spec §7: an agent's documents (resources/account-documents.ts), by the agent's email.
    documents: operation('GET /agents/documents/{email}', 'documentsOfAgent', { access: ['admin', 'agent'] }),
  },
  dialogs: {
    // An action: the agent's account is created with it, in the same transaction (no password yet:
    // it signs in once an admin issues a one-time password).
    createAgent: dialog.action({
      pick: ['name', 'email', 'phone', 'city', 'district', 'country', 'commission', 'fulladdress', 'agentId'],
      call: 'POST /agents',
      handler: 'createAgentWithAccount',
      success: 'Agent created successfully.',
      failure: 'Unable to create agent!',
    }),
    // An action: a new name or email is the account's too.
    updateAgent: dialog.action({
      pick: ['name', 'email', 'phone', 'city', 'district', 'country', 'commission', 'fulladdress', 'agentId'],
      call: 'PATCH /agents/{id}',
      handler: 'updateAgentWithAccount',
      success: 'Agent updated successfully.',
      failure: 'Unable to update agent!',
    }),
    agentCommissionModel: dialog.update({
      title: 'Agent commission',
      pick: ['commission'],
      call: 'PATCH /agents/{id}/commission',
      success: 'Commission updated successfully.',
      failure: 'Unable to update commission!',
    }),
    deleteAgent: dialog.remove({
      call: 'DELETE /agents/{id}/recycle',
      missing: 'Agent is missing.',
      success: 'Agent moved to the recycle bin.',
    }),
  },
});

export const dealers = defineResource({
  name: 'dealers',
  label: 'Dealer',
  plural: 'Dealers',
  access: { read: ['admin', 'dealer'], write: ['admin'], owner: { field: 'userId', roles: { admin: 'all', dealer: 'own' } } },
  menu: { group: 'People', icon: 'Storefront' },
  list: { rowDialogs: ['replaceDealerModal'] },
  fields: [
    field.text('name', { rule: rules.text(1, 'Dealer name is required!'), list: true, searchable: true }),
    login(),
    // Spec §3 Dealer `dealerId`: the dealer's public id, made as an agent's is (the dealer slider shows
    // it beside the name, city, district and country). Not `users.dealerId`, which names the dealer
    // account a seller or agent works under.
    field.text('dealerId', {
      label: 'Dealer ID',
      computed: { by: computations.dealerId, from: agentIdSources },
      readOnly: true,
      unique: true,
      list: true,
      searchable: true,
    }),
    field.text('city', { rule: rules.text(3, 'City is required!'), list: true, searchable: true }),
    field.text('district', { rule: rules.text(3, 'District is required!'), list: true }),
    field.reference('country', 'countries', { by: 'code', rule: rules.text(2, 'Country is required!'), list: true }),
    commission(),
    picture(),
    account(),
  ],
  reads: {
    list: read.list('GET /dealers/'),
    one: read.one('GET /dealers/{id}'),
  },
  operations: {
    // Spec §7: a dealer's documents (resources/account-documents.ts), by the dealer's id.
    documents: operation('GET /dealers/documents/id/{id}', 'documentsOfDealer', { access: ['admin', 'dealer'] }),
  },
  dialogs: {
    // Ours (issue 51): as `createAgent`, the dealer's account (role dealer, no password yet) is made with it.
    createDealer: dialog.action({
      title: 'Create dealer',
      pick: ['name', 'email', 'city', 'district', 'country', 'commission', 'dealerId'],
      call: 'POST /dealers',
      handler: 'createDealerWithAccount',
      success: 'Dealer created successfully.',
      failure: 'Unable to create dealer!',
    }),
    dealerCommissionModel: dialog.update({
      title: 'Dealer commission',
      pick: ['commission'],
      call: 'PATCH /dealers/{id}',
      success: 'Commission updated successfully.',
      failure: 'Unable to update commission!',
    }),
    deleteDealer: dialog.remove({
      call: 'DELETE /dealers/{id}',
      missing: 'Dealer is missing.',
      success: 'Dealer deleted successfully.',
    }),
  },
});

export const sellers = defineResource({
  name: 'sellers',
  label: 'Seller',
  plural: 'Sellers',
  title: 'shopname',
  // A seller keeps its own shop; its dealer (`users.dealerId`) sees the shops of its team.
  access: {
    read: ['admin', 'dealer', 'seller'],
    write: ['admin', 'seller'],
    owner: { field: 'userId', roles: { admin: 'all', seller: 'own', dealer: { team: 'dealerId' } } },
  },
  menu: { group: 'People', icon: 'Store' },
  // Spec §2 seller-login-details: the seller's account's login, declared on the accounts.
  list: { rowDialogs: ['seller-login-details'] },
  fields: [
    field.text('shopname', { label: 'Shop name', rule: rules.text(2, 'Shop name is required!'), list: true, searchable: true }),
    login(),
    country(),
    picture(webAddress.optional()),
    phone(),
    account(),
  ],
  reads: {
    // Spec §7 "GET /sellers/ (optional dealerId)": the sellers whose account works under that dealer.
    list: read.list('GET /sellers/', { scope: { field: 'userId', param: 'dealerId', through: 'dealerId' } }),
    // The dealer's view: its own team (an admin, reaching every seller, sees them all). Sellers have no use for it.
    dealer: read.list('GET /sellers/dealer', { access: ['admin', 'dealer'] }),
    one: read.one('GET /sellers/{id}'),
  },
  dialogs: {
    // Ours (issue 51): an admin makes a seller as an agent is made, with its account (role seller, named
    // after the shop, no password yet: a one-time password or "Forgot password?" gives it one).
    createSeller: dialog.action({
      title: 'Create seller',
      pick: ['shopname', 'email', 'country', 'phone', 'image'],
      // No picture chosen: none is sent, and the shop shows the default (the widget's empty value is '').
      optional: ['image'],
      call: 'POST /sellers',
      handler: 'createSellerWithAccount',
      access: ['admin'],
      success: 'Seller created successfully.',
      failure: 'Unable to create seller!',
    }),
    // Ours, beyond the spec (which only reads and deletes sellers): a seller edits its shop. Not
    // `PATCH /sellers/{id}`: the spec mutates that path with DELETE only.
    updateSeller: dialog.update({
      pick: ['shopname', 'country', 'image', 'phone'],
      call: 'PATCH /sellers/{id}/edit',
      success: 'Seller updated successfully.',
      failure: 'Unable to update seller!',
    }),
    // Spec §6: an admin function. A seller may edit its shop, not delete it (its account would be left shopless).
    deleteSeller: dialog.remove({
      call: 'DELETE /sellers/{id}',
      access: ['admin'],
      missing: 'Seller is missing.',
      success: 'Seller deleted successfully.',
    }),
  },
});

/** What the person an agent's or dealer's account was handed to reads first. */
const handedOver = (role: 'agent' | 'dealer'): NotifyDef => ({
  to: { field: 'userId' },
  title: 'Welcome',
  message: `Welcome, {name}: this ${role} account has been handed to you.`,
  type: 'info',
  category: 'account',
});

/**
 * Spec §3 "Agent or dealer replacement" (name, image, email, password): handing an agent's or dealer's
 * account to a new person. Each replacement is kept as a record (who the account was handed from, to
 * whom, when), so the admin can trace an account's holders. The password is only ever sent: the handler
 * hashes it into the account and stores it nowhere here.
 */
export const accountReplacements = defineResource({
  name: 'accountReplacements',
  label: 'Agent or dealer replacement',
  plural: 'Replacements',
  access: { read: ['admin'], write: ['admin'] },
  menu: { group: 'People', icon: 'SwapHoriz' },
  fields: [
    field.text('name', { rule: rules.notGeneral('Name is required!', "Name cannot be 'general'"), list: true, searchable: true }),
    field.image('image', {
      rule: rules.text(3, 'Image is required!').refine((v) => v.length < 3 || webAddress.safeParse(v).success, 'Image must be an http(s) URL or a path on this site.'),
      list: true,
      upload: { endpoint: 'profilepics' },
    }),
    field.email('email', { rule: email(5), list: true, searchable: true }),
    // The account's new password (spec §5: 6 to 12 characters, the spec's own messages).
    field.password('password', {
      rule: passwordRule,
      hint: '6 to 12 characters. Tell it to the new person yourself: it is never emailed.',
    }),
    field.select('role', ['agent', 'dealer'], {
      choices: [
        { value: 'agent', label: 'Agent' },
        { value: 'dealer', label: 'Dealer' },
      ],
      list: true,
    }),
    field.reference('account', 'users', { list: true }),
    field.text('previousName', { label: 'Handed over from', list: true, searchable: true }),
    field.text('previousEmail', { label: 'Previous email', list: true, searchable: true }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: { list: read.list('GET /replacements') },
  dialogs: {
    replaceAgentModal: dialog.action({
      title: 'Replace agent',
      pick: ['name', 'image', 'email', 'password'],
      call: 'PATCH /agents/replace/{id}',
      handler: 'replaceAgent',
      success: 'Agent replaced successfully.',
      failure: 'Unable to replace agent!',
      // It answers the agent's profile: the account's new person is welcomed (the old one has lost it).
      notify: handedOver('agent'),
    }),
    replaceDealerModal: dialog.action({
      title: 'Replace dealer',
      pick: ['name', 'image', 'email', 'password'],
      call: 'PATCH /dealers/replace/{id}',
      handler: 'replaceDealer',
      success: 'Dealer replaced successfully.',
      failure: 'Unable to replace dealer!',
      // It answers the dealer's profile: the account's new person is welcomed (the old one has lost it).
      notify: handedOver('dealer'),
    }),
  },
});

/**
 * Demo people (called by `seedIfEmpty`, inside its transaction, after the demo accounts and the
 * countries): dealers with their sellers under them (`users.dealerId`), agents across countries, and
 * their documents in every review state.
 *
 * Always, catalogue or not (tests rely on it): the demo dealer, seller and agent accounts get their
 * profiles, `seller@demo.test` works under `dealer@demo.test`, and a second dealer and a second seller
 * (`dealer2@demo.test`, `seller2@demo.test`, password as the other demo accounts) exist, the seller
 * under that second dealer. With the catalogue: a third dealer, 2 to 4 sellers under each dealer, six
 * agents in all, and documents. People beyond the demo accounts have no password: like a new agent,
 * they cannot sign in until an admin issues them a one-time password.
 */
import type { Registry } from '../../manifest/index.ts';
import { computations } from '../../domain/computed.ts';
import { firstFreeId } from '../../domain/names.ts';
import { newInviteCode } from '../accounts/invite-code.ts';
import { newId } from '../db/id.ts';
import type { Db, Row } from '../db/types.ts';
import { columnsOf } from '../db/tables.ts';
import type { Stamp } from './content.ts';

/** The demo accounts seeded besides one per role, always (see the module comment). */
export const SECOND_DEALER_EMAIL = 'dealer2@demo.test';
export const SECOND_SELLER_EMAIL = 'seller2@demo.test';

export interface PeopleSeed {
  stamp: Stamp;
  /** The demo accounts' password hash (`demo1234`), given to the second dealer and seller too. */
  passwordHash: string;
  /** Seed the whole demo marketplace, not only what tests rely on. */
  catalogue: boolean;
}

interface Place {
  city: string;
  district: string;
  country: string;
}

interface DealerSeed extends Place {
  name: string;
  email: string;
  commission: number;
  sellers: { name: string; email: string; shopname: string; phone: string }[];
}

interface AgentSeed extends Place {
  name: string;
  email: string;
  phone: string;
  fulladdress: string;
  commission: number;
}

const AVATAR = '/avatar.png';
/** Nothing is uploaded at seed time: documents point at the product's own fallback image (spec §2). */
const DOCUMENT_FILE = '/logo.jpg';

/** The dealers and sellers of the demo marketplace beyond the two demo dealers' own demo sellers. */
const MORE_SELLERS: Record<string, DealerSeed['sellers']> = {
  'dealer@demo.test': [
    { name: 'Tanvir Hasan', email: 'tanvir.hasan@example.com', shopname: 'Gulshan Gadgets', phone: '+8801711000101' },
    { name: 'Sadia Islam', email: 'sadia.islam@example.com', shopname: 'Banani Books', phone: '+8801711000102' },
  ],
  [SECOND_DEALER_EMAIL]: [{ name: 'Arif Chowdhury', email: 'arif.chowdhury@example.com', shopname: 'Port City Fashion', phone: '+8801811000201' }],
};

const THIRD_DEALER: DealerSeed = {
  name: 'Amina Okafor',
  email: 'amina.okafor@example.com',
  city: 'Lagos',
  district: 'Ikeja',
  country: 'NG',
  commission: 6,
  sellers: [
    { name: 'Chinedu Obi', email: 'chinedu.obi@example.com', shopname: 'Ikeja Electronics', phone: '+2348031000301' },
    { name: 'Ngozi Adeyemi', email: 'ngozi.adeyemi@example.com', shopname: 'Lekki Home Goods', phone: '+2348031000302' },
    { name: 'Tunde Bakare', email: 'tunde.bakare@example.com', shopname: 'Mainland Mart', phone: '+2348031000303' },
  ],
};

const MORE_AGENTS: AgentSeed[] = [
  { name: 'Rahim Uddin', email: 'rahim.uddin@example.com', phone: '+8801911000401', city: 'Dhaka', district: 'Mirpur', country: 'BD', fulladdress: 'House 12, Road 3, Mirpur 10, Dhaka', commission: 2.5 },
  { name: 'John Smith', email: 'john.smith@example.com', phone: '+15125550142', city: 'Austin', district: 'Travis', country: 'US', fulladdress: '401 Congress Ave, Austin, TX 78701', commission: 3 },
  { name: 'Priya Sharma', email: 'priya.sharma@example.com', phone: '+919820000403', city: 'Mumbai', district: 'Andheri', country: 'IN', fulladdress: '14 Veera Desai Road, Andheri West, Mumbai', commission: 2 },
  { name: 'Chidi Eze', email: 'chidi.eze@example.com', phone: '+2348051000404', city: 'Lagos', district: 'Surulere', country: 'NG', fulladdress: '22 Adeniran Ogunsanya St, Surulere, Lagos', commission: 3.5 },
  { name: 'Fatima Zahra', email: 'fatima.zahra@example.com', phone: '+212661000405', city: 'Casablanca', district: 'Maarif', country: 'MA', fulladdress: '8 Rue Ibnou Katir, Maarif, Casablanca', commission: 4 },
];

/** Inserts rows with ids and the stamp, refusing a key that is not a column (a renamed field fails here). */
async function insert(trx: Db, registry: Registry, table: string, rows: Row[], stamp: Stamp): Promise<Row[]> {
  if (!rows.length) return [];
  const columns = new Set(columnsOf(registry.resource(table)).map((c) => c.name));
  const full = rows.map((row) => {
    for (const key of Object.keys(row)) if (!columns.has(key)) throw new Error(`seed: ${table} has no column '${key}'`);
    return { id: newId(), ...row, ...stamp };
  });
  await trx.insertInto(table).values(full).execute();
  return full;
}

/** Accounts without a password (see the module comment), of `role`, under `dealerId` when given. */
function account(name: string, email: string, role: string, country: string, dealerId?: string, passwordHash: string | null = null): Row {
  return { name, email, role, country, image: AVATAR, inviteCode: newInviteCode(), passwordHash, ...(dealerId ? { dealerId } : {}) };
}

export async function seedPeople(trx: Db, registry: Registry, { stamp, passwordHash, catalogue }: PeopleSeed) {
  const byEmail = async (email: string) => (await trx.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow()) as Row;
  const demoDealer = await byEmail('dealer@demo.test');
  const demoSeller = await byEmail('seller@demo.test');
  const demoAgent = await byEmail('agent@demo.test');
  await trx.updateTable('users').set({ dealerId: demoDealer.id }).where('id', '=', demoSeller.id).execute();
  const [secondDealer] = await insert(trx, registry, 'users', [account('Demo Dealer Two', SECOND_DEALER_EMAIL, 'dealer', 'BD', undefined, passwordHash)], stamp);
  const [secondSeller] = await insert(trx, registry, 'users', [account('Demo Seller Two', SECOND_SELLER_EMAIL, 'seller', 'BD', String(secondDealer.id), passwordHash)], stamp);

  const dealers: Row[] = [
    dealerProfile(demoDealer, { city: 'Dhaka', district: 'Gulshan', country: 'BD' }, 5),
    dealerProfile(secondDealer, { city: 'Chattogram', district: 'Pahartali', country: 'BD' }, 4),
  ];
  const sellers: Row[] = [
    { shopname: 'Demo Seller Shop', country: 'BD', image: AVATAR, phone: '+8801711000100', userId: demoSeller.id },
    { shopname: 'Demo Seller Two Shop', country: 'BD', image: AVATAR, phone: '+8801811000200', userId: secondSeller.id },
  ];
  const agents: AgentSeed[] = [
    { name: String(demoAgent.name), email: String(demoAgent.email), phone: '+8801911000400', city: 'Dhaka', district: 'Gulshan', country: 'BD', fulladdress: 'Road 90, Gulshan 2, Dhaka', commission: 3 },
  ];
  const agentAccounts: Row[] = [demoAgent];

  if (catalogue) {
    const [third] = await insert(trx, registry, 'users', [account(THIRD_DEALER.name, THIRD_DEALER.email, 'dealer', THIRD_DEALER.country)], stamp);
    const { city, district, country } = THIRD_DEALER;
    dealers.push(dealerProfile(third, { city, district, country }, THIRD_DEALER.commission));
    const teams: [Row, DealerSeed['sellers'], string][] = [
      [demoDealer, MORE_SELLERS['dealer@demo.test'], 'BD'],
      [secondDealer, MORE_SELLERS[SECOND_DEALER_EMAIL], 'BD'],
      [third, THIRD_DEALER.sellers, THIRD_DEALER.country],
    ];
    for (const [dealer, team, country] of teams) {
      const accounts = await insert(trx, registry, 'users', team.map((s) => account(s.name, s.email, 'seller', country, String(dealer.id))), stamp);
      team.forEach((s, i) => sellers.push({ shopname: s.shopname, country, image: AVATAR, phone: s.phone, userId: accounts[i].id }));
    }
    agents.push(...MORE_AGENTS);
    agentAccounts.push(...(await insert(trx, registry, 'users', MORE_AGENTS.map((a) => account(a.name, a.email, 'agent', a.country)), stamp)));
  }

  await insert(trx, registry, 'dealers', dealers, stamp);
  await insert(trx, registry, 'sellers', sellers, stamp);
  const taken: string[] = [];
  const agentRows = agents.map((a, i) => {
    const agentId = firstFreeId(String(computations.agentId({ ...a })), taken);
    taken.push(agentId);
    return { ...a, agentId, image: AVATAR, userId: agentAccounts[i].id };
  });
  await insert(trx, registry, 'agents', agentRows, stamp);

  if (catalogue) await seedDocuments(trx, registry, stamp, { sellers, dealers, agents: agentRows });
}

function dealerProfile(user: Row, place: Place, commission: number): Row {
  const name = String(user.name);
  return { name, ...place, dealerId: computations.dealerId({ name, ...place }), commission, image: AVATAR, userId: user.id };
}

/** The review states in turn, so every state is seen in every queue. */
const REVIEWS: Row[] = [
  { status: 'APPROVED', note: null },
  { status: 'PENDING', note: null },
  { status: 'REJECTED', note: 'The scan is blurred: please upload a sharper copy showing all four corners.' },
];

async function seedDocuments(trx: Db, registry: Registry, stamp: Stamp, people: Record<'sellers' | 'dealers' | 'agents', Row[]>) {
  const filed = (owners: Row[], kinds: string[]) =>
    owners.flatMap((owner, i) => kinds.map((kind, k) => ({ kind, file: DOCUMENT_FILE, ...REVIEWS[(i + k) % REVIEWS.length], userId: owner.userId })));
  await insert(trx, registry, 'sellerDocuments', filed(people.sellers, ['TRADE_LICENCE', 'NATIONAL_ID']), stamp);
  await insert(trx, registry, 'dealerDocuments', filed(people.dealers, ['TRADE_LICENCE', 'TAX_CERTIFICATE']), stamp);
  await insert(trx, registry, 'agentDocuments', filed(people.agents, ['NATIONAL_ID']), stamp);
}

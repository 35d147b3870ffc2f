/**
 * The hand-written screens besides the generated lists: each role's area, the admin's referral tree
 * and the people preview. Declared once here: the routes (routes.tsx), the sidebar (shell/Menu.tsx)
 * and the browser tests (a11y, phone) all read this list. Who may open a screen follows the calls it
 * makes, as the manifests declare them.
 */
import type { Access } from '../../manifest/index.ts';
import { referrals } from '../../../resources/referrals.ts';
import { supportRequests } from '../../../resources/support-requests.ts';
import { QUEUE_PATH, QUEUE_TITLE } from '../../features/support/contract.ts';
import { allows } from '../generate/access.ts';
import { AREA_ROLES, AREA_TITLES, homeOf, type AreaRole } from './areas.ts';

export interface Screen {
  /** The route (`/seller`). */
  path: string;
  /** The screen's title: its level-one heading and its menu entry. */
  title: string;
  /** A @mui/icons-material icon by name (see generate/icons.ts). */
  icon: string;
  /** Who may open it. */
  access: Access;
  /** The menu group it is listed under; none: it is the role's home entry, first in the menu. */
  group?: string;
  /** For an area: its role. */
  area?: AreaRole;
}

const AREA_ICONS: Record<AreaRole, string> = { seller: 'Storefront', dealer: 'Store', agent: 'Badge', user: 'Person', support: 'SupportAgent' };

/** Who may read the referral trees: the access of the `/flowchart/*` calls. */
const flowchart = referrals.operations.userTree;

/** The group the admin's people screens are listed under (the people resources' group, when declared). */
export const PEOPLE_GROUP = 'People';

export const SCREENS: readonly Screen[] = [
  ...AREA_ROLES.map((role): Screen => ({ path: homeOf(role), title: AREA_TITLES[role], icon: AREA_ICONS[role], access: [role], area: role })),
  { path: '/referrals', title: 'Referrals', icon: 'AccountTree', access: flowchart.access ?? referrals.access.write, group: PEOPLE_GROUP },
  // The storefront's sliders as the admin previews them (the call itself is public).
  { path: '/people', title: 'Storefront people', icon: 'ViewCarousel', access: ['admin'], group: PEOPLE_GROUP },
  // The staff's work: open requests by urgency and age, with their SLA clocks (the queue call's access).
  { path: QUEUE_PATH, title: QUEUE_TITLE, icon: 'SupportAgent', access: supportRequests.operations.queue.access ?? supportRequests.access.write, group: supportRequests.menu!.group },
];

/** The screens a role may open. */
export const screensFor = (role: unknown) => SCREENS.filter((s) => allows(s.access, role));

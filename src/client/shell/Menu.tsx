/**
 * The side menu: the role's home first (the admin's dashboard, or the role's area), the lists the role
 * may use (areas/areas.ts `mayUse`: a seller is not offered the site's content it can only read)
 * grouped under their manifest's `menu.group` in registry order, the hand-written screens it may open
 * (areas/screens.ts) under theirs, and the admin-menu entries (the `adminMenus` resource: name,
 * group, href) under their own group: merged
 * into a generated group of the same name, else in a group of their own after the generated ones.
 * An internal href ('/banners') navigates in the app; any other opens in a new tab. Entries are read
 * through the data provider, so react-admin's refresh after a dialog changes them reads them again.
 * Choosing an entry of this app moves the focus to the new screen's heading (its title), so the
 * keyboard goes on from there rather than from the menu.
 *
 * The menu is drawn again only for what it shows (issue 51.10): it was 1,150 of the 6,600 components a
 * list's next page redrew, and as many again on the way from sign-in to a list. Each entry is
 * memoized and sees a location that changes only when its own "active" mark does (KeepLocation).
 */
import { memo, useContext, useMemo, type MouseEvent, type ReactNode } from 'react';
import { matchPath, UNSAFE_RouteContext as RouteContext } from 'react-router-dom';
import { LocationContext, PathOnlyLocation } from './path-only-location.tsx';
import { Box, ListItemIcon, ListSubheader, MenuItem, Tooltip, Typography } from '@mui/material';
import { Menu, useCreatePath, useGetList, useLocation, usePermissions, useResourceDefinitions, useSidebarState, type RaRecord } from 'react-admin';
import { useRegistry } from '../registry/context.tsx';
import { mayList } from '../generate/access.ts';
import { useOpenList } from '../generate/read-ahead.ts';
import { iconFor } from '../generate/icons.ts';
import { mayUse } from '../areas/areas.ts';
import { screensFor, type Screen } from '../areas/screens.ts';

/** The resource whose records are extra menu entries. */
export const ADMIN_MENUS = 'adminMenus';
const ENTRIES_READ = { pagination: { page: 1, perPage: 100 }, sort: { field: 'group', order: 'ASC' as const } };

type Item = { kind: 'resource'; name: string } | { kind: 'entry'; record: RaRecord } | { kind: 'screen'; screen: Screen };

/** An href of this app (a path), not another site's: '//host' is another site. */
export const isInternal = (href: string) => href.startsWith('/') && !href.startsWith('//');
/** Only web addresses leave the app: a `javascript:` or `data:` href is not offered at all. */
const isWeb = (href: string) => /^https?:\/\//i.test(href);

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

function useAdminMenuEntries(): RaRecord[] {
  const { permissions } = usePermissions();
  const declared = useRegistry().resources.find((r) => r.name === ADMIN_MENUS);
  const may = !!declared && mayList(declared, permissions);
  const { data } = useGetList(ADMIN_MENUS, ENTRIES_READ, { enabled: may });
  return may ? (data ?? []) : [];
}

function EntryItem({ record, open }: { record: RaRecord; open: boolean }) {
  const href = text(record.href);
  const name = text(record.name) || href;
  if (isInternal(href)) return <Menu.Item to={href} primaryText={name} leftIcon={<LinkIcon />} {...SYNC} />;
  const item = (
    <MenuItem
      component="a"
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      sx={{ color: 'text.secondary' }}
      tabIndex={0}
    >
      <ListItemIcon sx={{ minWidth: 40 }}>
        <ExternalIcon />
      </ListItemIcon>
      <Typography variant="inherit" noWrap sx={{ flexGrow: 1 }}>
        {name}
      </Typography>
    </MenuItem>
  );
  return open ? (
    item
  ) : (
    <Tooltip title={name} placement="right">
      {item}
    </Tooltip>
  );
}

const LinkIcon = iconFor('Link');
const ExternalIcon = iconFor('OpenInNew');

/**
 * A click on an entry draws the new screen at once (react-router's `flushSync`), not in a transition:
 * React would batch that with any transition pending (the dashboard's cards, the form warm-up) and
 * slice it between frames, and the list's first request waited on all of it (issue 51.10).
 */
const SYNC = { flushSync: true } as object;

const ScreenItem = memo(function ScreenItem({ screen }: { screen: Screen }) {
  const Icon = iconFor(screen.icon);
  return <Menu.Item to={screen.path} primaryText={screen.title} leftIcon={<Icon />} {...SYNC} />;
});

/** A list's entry: choosing it starts reading the list's first page (read-ahead.ts `useOpenList`). */
const ResourceItem = memo(function ResourceItem({ name, onOpen }: { name: string; onOpen: (name: string) => void }) {
  return <Menu.ResourceItem name={name} onClick={() => onOpen(name)} {...SYNC} />;
});
const DashboardItem = memo(function DashboardItem() {
  return <Menu.DashboardItem {...SYNC} />;
});
const Entry = memo(EntryItem);

/**
 * What it holds sees the router's location, and the route it is drawn in, as they were when `active`
 * last changed: an entry depends on the location for its "active" mark only (its link is a whole path,
 * resolved the same under any route), and react-router's hooks read the whole location (its links the
 * route's matches too, made anew at every address), so every entry was drawn again at every navigation,
 * a list's page, sort or search among them. Now an entry is drawn again when it becomes, or stops being,
 * the current one.
 */
function KeepLocation({ active, children }: { active: boolean; children: ReactNode }) {
  const location = useContext(LocationContext);
  const route = useContext(RouteContext);
  // Kept for as long as the mark stays the same.
  const kept = useMemo(() => location, [active]);
  const keptRoute = useMemo(() => route, [active]);
  // (No router context of ours to keep, as under a test's own router: nothing to do.)
  return kept ? (
    <LocationContext.Provider value={kept}>
      <RouteContext.Provider value={keptRoute}>{children}</RouteContext.Provider>
    </LocationContext.Provider>
  ) : (
    children
  );
}

/** Whether `to` is the current screen, as react-admin's menu item decides it (the landing page: exactly). */
const isActive = (to: string, pathname: string) => matchPath({ path: to, end: to === '/' }, pathname) !== null;

/** The screen's title, its level-one heading (Layout.tsx). */
const HEADING = 'react-admin-title';
/** How long the focus waits for the chosen screen's title before giving up. */
const TITLE_WAIT_MS = 5_000;
const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]';

/** The first control of the screen's content the keyboard can reach. */
function firstInContent(): HTMLElement | undefined {
  const content = document.getElementById('main-content');
  return [...(content?.querySelectorAll<HTMLElement>(TABBABLE) ?? [])].find((el) => el.tabIndex >= 0 && el.checkVisibility({ visibilityProperty: true }));
}

/**
 * The heading stands in the app bar, before the menu in the page's order: Tab from it goes on into the
 * screen's content (as it would from a heading of the content), not back through the menu.
 */
function continueIntoContent(heading: HTMLElement) {
  const onKey = (k: KeyboardEvent) => {
    if (k.key !== 'Tab' || k.shiftKey) return;
    const next = firstInContent();
    if (!next) return;
    k.preventDefault();
    next.focus();
  };
  heading.addEventListener('keydown', onKey);
  heading.addEventListener('blur', () => heading.removeEventListener('keydown', onKey), { once: true });
}

/**
 * After a menu entry of this app is chosen: focuses the heading once it names the new screen (it keeps
 * the old title until that screen has drawn), or at once when the entry is the screen already shown.
 */
function focusHeadingAfter(e: MouseEvent) {
  const link = e.target instanceof Element ? e.target.closest('a[href]') : null;
  if (!link || link.getAttribute('target') === '_blank') return;
  const heading = document.getElementById(HEADING);
  if (!heading) return;
  const before = heading.textContent;
  const same = (link as HTMLAnchorElement).href === location.href;
  const until = Date.now() + TITLE_WAIT_MS;
  const tryFocus = () => {
    const now = document.getElementById(HEADING);
    if (!now) return;
    if (same || (now.textContent && now.textContent !== before)) {
      now.tabIndex = -1;
      now.focus();
      continueIntoContent(now);
    } else if (Date.now() < until) requestAnimationFrame(tryFocus);
  };
  requestAnimationFrame(tryFocus);
}

const MenuBody = memo(function MenuBody() {
  const registered = useResourceDefinitions();
  const createPath = useCreatePath();
  // The location PathOnlyLocation keeps: this is drawn again when the path changes.
  const { pathname } = useLocation();
  // Each entry under its own location (KeepLocation), drawn again only when its mark changes.
  const keep = (to: string, item: ReactNode) => (
    <KeepLocation key={to} active={isActive(to, pathname)}>
      {item}
    </KeepLocation>
  );
  const registry = useRegistry();
  const [open] = useSidebarState();
  const entries = useAdminMenuEntries();
  const { permissions } = usePermissions();
  const openList = useOpenList(permissions);
  const screens = screensFor(permissions);
  const home = screens.find((s) => s.area);
  const groups = new Map<string, Item[]>();
  const add = (group: string, item: Item) => {
    const items = groups.get(group) ?? [];
    items.push(item);
    groups.set(group, items);
  };
  for (const r of registry.resources)
    if (r.menu && registered[r.name] && mayUse(r, permissions, registry.resources)) add(r.menu.group, { kind: 'resource', name: r.name });
  for (const screen of screens) if (screen.group) add(screen.group, { kind: 'screen', screen });
  for (const record of entries) {
    const href = text(record.href);
    if (!text(record.group) || !(isInternal(href) || isWeb(href))) continue;
    add(text(record.group), { kind: 'entry', record });
  }
  // A menu may hold menu items and groups only: each heading names a group (`role="group"`) of items,
  // so screen readers announce it, and no bare list item stands in the menu.
  return (
    <Menu onClick={focusHeadingAfter}>
      {/* The landing page (counts per list, recent changes) comes first, as react-admin's own menu has it. */}
      {home ? keep(home.path, <ScreenItem screen={home} />) : keep('/', <DashboardItem />)}
      {[...groups].map(([group, items]) => (
        <Box component="li" role="none" key={group} sx={{ listStyle: 'none' }}>
          {/* A collapsed sidebar shows icons only; a heading there would be cut off. The group's name is read from aria-label. */}
          {open && (
            <ListSubheader component="div" aria-hidden="true" disableSticky sx={{ bgcolor: 'transparent', lineHeight: 2.5 }}>
              {group}
            </ListSubheader>
          )}
          <Box component="ul" role="group" aria-label={group} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {items.map((item) =>
              item.kind === 'resource' ? (
                keep(createPath({ resource: item.name, type: 'list' }), <ResourceItem name={item.name} onOpen={openList} />)
              ) : item.kind === 'screen' ? (
                keep(item.screen.path, <ScreenItem screen={item.screen} />)
              ) : (
                <KeepLocation key={`entry-${item.record.id}`} active={isInternal(text(item.record.href)) && isActive(text(item.record.href), pathname)}>
                  <Entry record={item.record} open={open} />
                </KeepLocation>
              ),
            )}
          </Box>
        </Box>
      ))}
    </Menu>
  );
});

export const GroupedMenu = memo(function GroupedMenu() {
  return (
    <PathOnlyLocation>
      <MenuBody />
    </PathOnlyLocation>
  );
});

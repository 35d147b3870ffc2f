/** One react-admin <Resource> per manifest with a list read the signed-in role may see. */
import type { ReactElement } from 'react';
import { Resource } from 'react-admin';
import type { Registry } from '../../manifest/index.ts';
import { mayList } from './access.ts';
import { iconFor } from './icons.ts';
import { preloadable } from '../shell/deferred.tsx';

// List screens (react-admin's List, Datagrid and filter inputs) are code of their own, loaded on first use.
const loadListScreen = () => import('./ListScreen.tsx');
// Once its code is there, a list renders without suspending (deferred.tsx says why that matters).
const ListScreen = preloadable(() => loadListScreen().then((m) => m.ListScreen));

/** Fetches and evaluates the list screen's code (the sign-in page's idle warm-up, App.tsx). */
export const preloadListScreen = () => ListScreen.preload();

export function generatedResources(registry: Registry, role: unknown): ReactElement[] {
  const shown = registry.resources.filter((r) => r.reads.list?.kind === 'list' && mayList(r, role));
  // The lists are a click away from the landing page: fetch their code now, not once a route renders.
  if (shown.length) void ListScreen.preload().catch(() => {});
  return shown.map((r) => (
    <Resource
      key={r.name}
      name={r.name}
      list={<ListScreen resource={r} />}
      icon={iconFor(r.menu?.icon)}
      options={{ label: r.plural }}
      recordRepresentation={r.title}
    />
  ));
}

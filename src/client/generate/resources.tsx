/** One react-admin <Resource> per manifest with a list read the signed-in role may see. */
import { lazy, type ReactElement } from 'react';
import { Resource } from 'react-admin';
import type { Registry } from '../../manifest/index.ts';
import { mayList } from './access.ts';
import { iconFor } from './icons.ts';

// List screens (react-admin's List, Datagrid and filter inputs) are code of their own, loaded on first use.
const loadListScreen = () => import('./ListScreen.tsx');
const ListScreen = lazy(() => loadListScreen().then((m) => ({ default: m.ListScreen })));

export function generatedResources(registry: Registry, role: unknown): ReactElement[] {
  const shown = registry.resources.filter((r) => r.reads.list?.kind === 'list' && mayList(r, role));
  // The lists are a click away from the landing page: fetch their code now, not once a route renders.
  if (shown.length) void loadListScreen();
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

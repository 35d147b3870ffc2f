/** One react-admin <Resource> per manifest with a list read the signed-in role may see. */
import type { ReactElement } from 'react';
import { Resource } from 'react-admin';
import type { Registry } from '../../manifest/index.ts';
import { allows, listAccess } from './access.ts';
import { iconFor } from './icons.ts';
import { ListScreen } from './ListScreen.tsx';

export function generatedResources(registry: Registry, role: unknown): ReactElement[] {
  return registry.resources
    .filter((r) => r.reads.list?.kind === 'list' && allows(listAccess(r), role))
    .map((r) => (
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

/**
 * A list's filters, from its fields: free-text search (`q`) when any field is searchable, a parent
 * picker per filterable reference, a choice per filterable select, an exact-match box otherwise.
 */
import type { ReactElement } from 'react';
import { AutocompleteInput, ReferenceInput, SearchInput, SelectInput, TextInput } from 'react-admin';
import { labelOf, listOptions, type ResourceDef } from '../../manifest/index.ts';
import { registry } from '../../../resources/index.ts';

const PARENTS_PER_PAGE = 50;

export function listFilters(resource: ResourceDef): ReactElement[] {
  const filters: ReactElement[] = [];
  const offered = listOptions(resource, registry);
  if (offered.search.length) filters.push(<SearchInput key="q" source="q" alwaysOn />);
  for (const f of resource.fields) {
    if (!offered.filters.includes(f.name)) continue;
    const label = labelOf(f);
    if (f.kind === 'reference') {
      const parent = registry.resource(f.reference!);
      filters.push(
        <ReferenceInput
          key={f.name}
          source={f.name}
          reference={parent.name}
          sort={{ field: parent.title, order: 'ASC' }}
          perPage={PARENTS_PER_PAGE}
          alwaysOn
        >
          <AutocompleteInput label={label} optionText={parent.title} filterToQuery={(q: string) => ({ q })} />
        </ReferenceInput>,
      );
    } else if (f.kind === 'select') {
      const choices = (f.options ?? []).map((o) => ({ id: o, name: o }));
      filters.push(<SelectInput key={f.name} source={f.name} label={label} choices={choices} alwaysOn />);
    } else {
      filters.push(<TextInput key={f.name} source={f.name} label={label} alwaysOn />);
    }
  }
  return filters;
}

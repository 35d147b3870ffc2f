/**
 * A list's filters, by what the value is, so no filter can be given a value the server refuses:
 * free-text search (`q`) when any field is searchable; a parent picker per filterable reference; a
 * select for every enumerated value (a select's options, a field's `choices`, a flag: Yes/No, a
 * resource's name); a number box for other numbers; a date range ('Created from', 'Created until')
 * for dates; a text box only for text, which the server compares exactly and never refuses.
 * The search and the first `INLINE_FILTERS` exact filters stand above the list; the others and the
 * date ranges are behind its Filters button (more-filters.tsx), so a long list of filters never pushes
 * the rows down (on a phone, only the search stands above the cards).
 */
import type { ReactElement } from 'react';
import {
  AutocompleteInput,
  DateInput,
  NumberInput,
  ReferenceInput,
  SearchInput,
  SelectInput,
  TextInput,
} from 'react-admin';
import { labelOf, listFields, listOptions, RANGE_ENDS, type FieldDef, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { filterChoices, filterInputKind } from './choices.ts';
import { readsReference } from './access.ts';
import { dayBoundary, dayOf } from './formats.ts';

const PARENTS_PER_PAGE = 50;

/** How many exact filters stand beside the search on a wide screen. */
export const INLINE_FILTERS = 2;

function exactFilter(registry: Registry, f: FieldDef): ReactElement {
  const label = labelOf(f);
  switch (filterInputKind(registry, f)) {
    case 'reference': {
      const parent = registry.resource(f.reference!);
      return (
        <ReferenceInput
          key={f.name}
          source={f.name}
          reference={parent.name}
          sort={{ field: parent.title, order: 'ASC' }}
          perPage={PARENTS_PER_PAGE}
          alwaysOn
        >
          {/* A reference held by another field of the parent (a country's code) filters by that field. */}
          <AutocompleteInput label={label} optionText={parent.title} optionValue={f.referenceBy ?? 'id'} filterToQuery={(q: string) => ({ q })} />
        </ReferenceInput>
      );
    }
    case 'select':
      return <SelectInput key={f.name} source={f.name} label={label} choices={filterChoices(registry, f)} translateChoice={false} alwaysOn />;
    case 'number':
      return <NumberInput key={f.name} source={f.name} label={label} step={f.storage === 'integer' ? 1 : 'any'} alwaysOn />;
    default:
      return <TextInput key={f.name} source={f.name} label={label} alwaysOn />;
  }
}

/** 'Created from' and 'Created until': days in the user's time zone, sent as the instants they start and end. */
function rangeFilters(f: FieldDef): ReactElement[] {
  const label = labelOf(f);
  return [
    <DateInput
      key={f.name + RANGE_ENDS.from}
      source={f.name + RANGE_ENDS.from}
      label={`${label} from`}
      format={dayOf}
      parse={(day: string) => dayBoundary(day, 'start') ?? null}
    />,
    <DateInput
      key={f.name + RANGE_ENDS.to}
      source={f.name + RANGE_ENDS.to}
      label={`${label} until`}
      format={dayOf}
      parse={(day: string) => dayBoundary(day, 'end') ?? null}
    />,
  ];
}

export interface ListFilters {
  /** Shown above the list: the search, then (on a wide screen) the first exact filters. */
  inline: ReactElement[];
  /** Behind the Filters button. */
  more: ReactElement[];
}

export function listFilters(registry: Registry, resource: ResourceDef, role?: unknown, phone = false): ListFilters {
  const offered = listOptions(resource, registry);
  const search = offered.search.length ? [<SearchInput key="q" source="q" alwaysOn />] : [];
  // No picker of records the role may not read (it would only fetch a refusal).
  const exact = resource.fields.filter((f) => offered.filters.includes(f.name) && readsReference(registry, f, role)).map((f) => exactFilter(registry, f));
  const ranges = listFields(resource)
    .filter((f) => offered.ranges.includes(f.name))
    .flatMap(rangeFilters);
  const shown = phone ? 0 : INLINE_FILTERS;
  return { inline: [...search, ...exact.slice(0, shown)], more: [...exact.slice(shown), ...ranges] };
}

/**
 * The tables a manifest implies: one per resource, a column per stored field, plus `id`, `createdAt`
 * and `updatedAt`. Passwords are stored only as `<field>Hash`. Read by the migrations and the repository.
 */
import { listOptions, type FieldDef, type ResourceDef, type Storage } from '../../manifest/index.ts';

export interface ColumnDef {
  name: string;
  storage: Storage;
  /** The field the column stores, when it stores one. */
  field?: FieldDef;
}

export interface IndexDef {
  name: string;
  columns: string[];
  unique: boolean;
}

export function columnName(f: FieldDef): string {
  return f.secret ? `${f.name}Hash` : f.name;
}

export function columnsOf(r: ResourceDef): ColumnDef[] {
  return [
    { name: 'id', storage: 'text' },
    ...r.fields.map((f) => ({ name: columnName(f), storage: f.storage, field: f })),
    { name: 'createdAt', storage: 'text' },
    { name: 'updatedAt', storage: 'text' },
  ];
}

/**
 * Indexes from what the list screen offers (`listOptions`): every sort gets `(field, id)`, every filter
 * `(filter, id)` and `(filter, sort, id)` for each sort (a unique field needs no `id`: its own unique
 * index orders the rows), so a page is read in order straight from an
 * index (the `id` is the page's tie-break) and a filtered count from the index alone. Unique fields
 * get a unique index.
 */
export function indexesOf(r: ResourceDef): IndexDef[] {
  const out: IndexDef[] = [];
  const add = (columns: string[], unique = false) =>
    out.push({ name: `${r.name}_${columns.join('_')}_${unique ? 'unique' : 'idx'}`, columns, unique });
  for (const f of r.fields) if (f.unique) add([columnName(f)], true);
  const { sorts, filters } = listOptions(r);
  const ordered = sorts.filter((s) => s !== 'id');
  const unique = new Set(r.fields.filter((f) => f.unique).map((f) => f.name));
  // A unique field's own index already gives its order.
  for (const sort of ordered) if (!unique.has(sort)) add([sort, 'id']);
  for (const filter of filters) {
    add([filter, 'id']);
    for (const sort of ordered) if (sort !== filter) add([filter, sort, 'id']);
  }
  return out;
}

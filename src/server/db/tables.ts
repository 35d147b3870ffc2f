/**
 * The tables a manifest implies: one per resource, a column per stored field, plus `id`, `createdAt`
 * and `updatedAt`. Passwords are stored only as `<field>Hash`. Read by the migrations and the repository.
 */
import type { FieldDef, ResourceDef, Storage } from '../../manifest/index.ts';

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

/** Indexes: references (child lookups, parent filters) and unique fields. */
export function indexesOf(r: ResourceDef): IndexDef[] {
  const out: IndexDef[] = [];
  for (const f of r.fields) {
    if (f.unique) out.push({ name: `${r.name}_${f.name}_unique`, columns: [columnName(f)], unique: true });
    else if (f.kind === 'reference') out.push({ name: `${r.name}_${f.name}_idx`, columns: [f.name], unique: false });
  }
  return out;
}

/**
 * A list page's references, read once for the page (issue 51.10). react-admin's ReferenceField asks for
 * its record in every cell (a react-query observer each, gathered into one request): two reference
 * columns made fifty observers a page, each updated, each notifying, and each working out its link, at
 * every new page. Here the list asks once per target resource for the ids its page shows
 * (`PageReferencesProvider`), under react-admin's own `getMany` key and with its placeholder (the
 * records already read one by one, as the next page's read ahead leaves them: next-page.tsx), and works
 * out each record's link once; a cell (`PageReferenceCell`) looks its record up.
 */
import { createContext, useContext, useMemo, type MouseEvent, type ReactNode } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { visuallyHidden } from '@mui/utils';
import ErrorIcon from '@mui/icons-material/Error';
import { LinearProgress, useDataProvider, useFieldValue, useListContext, useNavigate, type RaRecord } from 'react-admin';
// react-router-dom: the module react-admin imports, so its router's contexts are the ones read.
import { useHref } from 'react-router-dom';
import type { FieldDef, Registry, ResourceDef } from '../../manifest/index.ts';
import { useRegistry } from '../registry/context.tsx';
import { readsReference } from './access.ts';
import { recordAddressOf } from './record-address.ts';
import { useSignedIn } from './signed-in.tsx';
import { CELL_TEXT } from './cell-text.ts';
import { LIGHT_LINK, lightTextClass } from './cell-displays.tsx';
import type { ColumnProps } from './displays.tsx';

/** A referenced record of the page, with where its cell links to (nowhere when the role may not go there). */
interface Referenced {
  record: RaRecord;
  link: string | undefined;
}

/** What the page read of one target resource. */
interface TargetReferences {
  byId: Map<string, Referenced>;
  isPending: boolean;
  error: unknown;
}

interface PageReferences {
  /** What the page read, by target resource name. */
  targets: Map<string, TargetReferences>;
  /** A link's address in the page (the router's: `#/…` under the app's hash router). */
  hrefOf: (link: string) => string;
  /** Follows a link in the app, as react-router's Link does on a plain click. */
  follow: (link: string) => void;
}

/** Null outside a list that reads its page's references. */
const PageReferencesContext = createContext<PageReferences | null>(null);

/** The reference columns a list reads for its page: shown by id (not `referenceBy`), to targets the role may read. */
export function pageReferenceFields(registry: Registry, resource: ResourceDef, role: unknown): FieldDef[] {
  return resource.fields.filter((f) => f.kind === 'reference' && f.list && !f.referenceBy && readsReference(registry, f, role));
}

/** What a target's query gives the cells: its records, whether they are being read for the first time, its failure. */
function readOf(results: { data?: RaRecord[]; isPending: boolean; isFetching: boolean; error: unknown }[]) {
  return results.map(({ data, isPending, isFetching, error }) => ({ records: data ?? [], isPending: isPending && isFetching, error }));
}

const present = (id: unknown) => id !== null && id !== undefined && id !== '';

/** Reads the references of the list's page (under a `SignedInProvider`) for the cells it wraps. */
export function PageReferencesProvider({ resource, children }: { resource: ResourceDef; children: ReactNode }) {
  const { data } = useListContext();
  const { role } = useSignedIn();
  const registry = useRegistry();
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  // Asked once for the page, not by each of its fifty links (a router Link is a handful of hooks).
  const root = useHref('/');
  const navigate = useNavigate();
  const fields = useMemo(() => pageReferenceFields(registry, resource, role), [registry, resource, role]);
  // Each target once (two columns may share one), with where its records link to, worked out once for the list.
  const linkers = useMemo(
    () => new Map(fields.map((f) => [f.reference!, recordAddressOf(registry, registry.resource(f.reference!), role)])),
    [fields, registry, role],
  );
  // The ids each target is asked for, in the page's order, each once.
  const wanted = useMemo(
    () =>
      [...linkers.keys()].map((target) => {
        const ids = new Set<string>();
        for (const f of fields) if (f.reference === target) for (const row of (data ?? []) as RaRecord[]) if (present(row[f.name])) ids.add(String(row[f.name]));
        return { target, ids: [...ids] };
      }),
    [linkers, fields, data],
  );
  const read = useQueries({
    queries: wanted.map(({ target, ids }) => ({
      // react-admin's useGetMany key: what it or a ReferenceField read is found here, and the other way round.
      queryKey: [target, 'getMany', { ids, meta: undefined }],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        dataProvider.getMany(target, { ids, signal }).then(({ data: records }) => {
          // Each also as read one by one (as useGetMany does): a later page showing it draws it at once.
          for (const record of records) queryClient.setQueryData([target, 'getOne', { id: String(record.id), meta: undefined }], (old: RaRecord | undefined) => old ?? record);
          return records;
        }),
      // Every record already read one by one (the next page's read ahead): drawn at once, read again beside.
      placeholderData: () => {
        const records = ids.map((id) => queryClient.getQueryData<RaRecord>([target, 'getOne', { id, meta: undefined }]));
        return records.every((r) => r !== undefined) ? (records as RaRecord[]) : undefined;
      },
      enabled: ids.length > 0,
    })),
    // The same value while the records and states stay the same (react-query keeps a combined result so).
    combine: readOf,
  });
  const targets = useMemo(() => {
    const out = new Map<string, TargetReferences>();
    wanted.forEach(({ target }, i) => {
      const linkOf = linkers.get(target)!;
      const { records, isPending, error } = read[i];
      const byId = new Map<string, Referenced>();
      for (const record of records) byId.set(String(record.id), { record, link: linkOf(record) });
      out.set(target, { byId, isPending, error });
    });
    return out;
  }, [wanted, linkers, read]);
  const value = useMemo<PageReferences>(
    () => ({
      targets,
      hrefOf: (link) => `${root.replace(/\/$/, '')}${link}`,
      follow: (link) => navigate(link, { state: { _scrollToTop: true } }),
    }),
    [targets, root, navigate],
  );
  return <PageReferencesContext.Provider value={value}>{children}</PageReferencesContext.Provider>;
}

/**
 * A link drawn as react-admin's Link draws one (MUI's Link, underlined, in the primary color: its looks
 * are `CellTextStyles`'), as one element: a page shows fifty, each otherwise eight components.
 */
function LightLink({ link, references, children }: { link: string; references: PageReferences; children: ReactNode }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // The link's, not the row's (whose click opens the row's record), as in ReferenceField.
    e.stopPropagation();
    // A click for a new tab or window, or a download, is the browser's.
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    references.follow(link);
  };
  return (
    <a href={references.hrefOf(link)} className={`MuiTypography-root MuiTypography-inherit MuiLink-root MuiLink-underlineAlways RaLink-link RaReferenceField-link ${LIGHT_LINK}`} onClick={onClick}>
      {children}
    </a>
  );
}

/**
 * A reference's cell in a list page: its target's title, linked as `recordAddress` says, drawn as
 * react-admin's ReferenceField draws it (its classes; their looks: `CellTextStyles`). `fallback` is drawn
 * where no provider read the page's references.
 */
export function PageReferenceCell({ source, target, emptyText, fallback }: ColumnProps & { target: ResourceDef; fallback: ReactNode }) {
  const references = useContext(PageReferencesContext);
  const id: unknown = useFieldValue({ source });
  const read = references?.targets.get(target.name);
  if (!references || !read) return fallback;
  const empty = emptyText ? <span className={lightTextClass()}>{emptyText}</span> : null;
  if (!present(id)) return empty;
  const found = read.byId.get(String(id));
  if (!found) {
    if (read.error)
      return (
        <div>
          <ErrorIcon role="presentation" color="error" fontSize="small" />
          <span style={visuallyHidden}>{read.error instanceof Error ? read.error.message : String(read.error)}</span>
        </div>
      );
    return read.isPending ? <LinearProgress /> : empty;
  }
  const title = found.record[target.title] as unknown;
  const text = <span className={lightTextClass(CELL_TEXT)}>{title != null && typeof title !== 'string' ? String(title) : title || null}</span>;
  return (
    <span className="RaReferenceField-root light-reference">
      {found.link ? (
        <LightLink link={found.link} references={references}>
          {text}
        </LightLink>
      ) : (
        text
      )}
    </span>
  );
}

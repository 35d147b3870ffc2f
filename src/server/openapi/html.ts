/**
 * The OpenAPI document as a page for a person (`/api/docs`): rendered on the server as plain HTML, no
 * script at all, so the app's strict CSP holds without exceptions. Every text from the document is
 * escaped; only backtick spans become `<code>`, after escaping.
 */
import { createHash } from 'node:crypto';
import { ROLES } from '../../manifest/index.ts';
import type { JsonSchema, OpenApiDocument, Operation, Parameter, Ref, Response } from './types.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const STYLE = `
:root { color-scheme: light dark; --line: #8884; --muted: #777; }
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem 1.5rem 4rem; }
code { font: 13px ui-monospace, monospace; background: #8882; padding: 0 .25em; border-radius: 3px; }
nav ul { columns: 14rem; padding: 0; list-style: none; }
h2 { border-bottom: 2px solid var(--line); padding-bottom: .25rem; margin-top: 2.5rem; }
article { border: 1px solid var(--line); border-radius: 6px; padding: .25rem 1rem .75rem; margin: 1rem 0; }
h3 { font-size: 1rem; margin: .5rem 0; }
h3 code { background: none; font-size: 14px; }
.method { display: inline-block; min-width: 4.2em; text-align: center; font: bold 12px ui-monospace, monospace;
  color: #fff; border-radius: 3px; padding: .1em .3em; margin-right: .4em; }
.get { background: #1f6feb; } .post { background: #1a7f37; } .put, .patch { background: #9a6700; } .delete { background: #cf222e; }
table { border-collapse: collapse; width: 100%; margin: .25rem 0 .75rem; font-size: 14px; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: .3rem .5rem .3rem 0; }
th { color: var(--muted); font-weight: 600; }
.muted { color: var(--muted); }
h4 { margin: .75rem 0 .25rem; font-size: .9rem; }
`;

/**
 * The page's CSP: nothing may load or run but its own inline style, allowed by its hash. The page
 * has no script, so none is allowed, inline or not.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Text made safe for HTML content and quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Escaped text in which `` `code` `` spans are shown as code. */
function prose(text: string | undefined): string {
  return escapeHtml(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>');
}

const anchor = (prefix: string, name: string) => `${prefix}-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;

/** The component a `$ref` names (`#/components/schemas/categories` → `categories`). */
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

const SAFE = Number.MAX_SAFE_INTEGER;

/** What a component schema is called on the page, by its name. */
type Titles = Record<string, string>;

/**
 * A schema in a few words: its type and the limits a person must respect. `titles` names the
 * components a `$ref` points at (`categories` → 'Category').
 */
export function describeSchema(schema: JsonSchema | undefined, titles: Titles = {}): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  const s = schema as Record<string, any>;
  const describe = (x: JsonSchema) => describeSchema(x, titles);
  if (s.$ref) return titles[refName(s.$ref)] ?? refName(s.$ref);
  if (s.allOf?.length === 1 && s.allOf[0].$ref) return `${describe(s.allOf[0])} with ${Object.keys(s.properties ?? {}).join(', ')}`;
  let kind: string;
  if (s.enum) kind = `one of ${s.enum.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
  else if ('const' in s) kind = JSON.stringify(s.const);
  else if (s.anyOf || s.oneOf) kind = (s.anyOf ?? s.oneOf).map(describe).join(' or ');
  else if (s.contentMediaType) kind = 'file';
  else if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
    kind = s.prefixItems ? `[${s.prefixItems.map(describe).join(', ')}]` : `list of ${describe(s.items)}`;
  } else if (s.type === 'object' && s.properties) kind = `{ ${Object.keys(s.properties).join(', ')} }`;
  else kind = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
  const limits: string[] = [];
  if (s.minLength !== undefined && s.maxLength !== undefined)
    limits.push(s.minLength === s.maxLength ? `exactly ${s.minLength} characters` : `${s.minLength} to ${s.maxLength} characters`);
  else if (s.minLength !== undefined) limits.push(`at least ${s.minLength} character${s.minLength === 1 ? '' : 's'}`);
  else if (s.maxLength !== undefined) limits.push(`at most ${s.maxLength} characters`);
  if (s.minimum !== undefined && s.minimum > -SAFE) limits.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) limits.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined && s.maximum < SAFE) limits.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) limits.push(`< ${s.exclusiveMaximum}`);
  if (s.minItems !== undefined && !s.prefixItems) limits.push(`at least ${s.minItems}`);
  if (s.maxItems !== undefined && !s.prefixItems) limits.push(`at most ${s.maxItems}`);
  if (s.pattern) limits.push(`matching ${s.pattern}`);
  if (s.format) limits.push(s.format);
  if (s.default !== undefined) limits.push(`default ${JSON.stringify(s.default)}`);
  return limits.length ? `${kind} (${limits.join(', ')})` : kind;
}

function table(head: string[], rows: string[][]): string {
  if (!rows.length) return '';
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const trs = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('');
  return `<table><thead><tr>${th}</tr></thead><tbody>${trs}</tbody></table>`;
}

function parameterSchema(p: Parameter): JsonSchema | undefined {
  return p.schema ?? Object.values(p.content ?? {})[0]?.schema;
}

function who(op: Operation): string {
  if (!op.security.length) return 'Anyone: no session needed.';
  const roles = op['x-roles'] ?? [];
  if (!roles.length) return 'Nobody.';
  if (ROLES.every((r) => roles.includes(r))) return 'Any signed-in role.';
  return `Signed in as ${roles.map((r) => `<code>${escapeHtml(r)}</code>`).join(', ')}.`;
}

function bodySection(op: Operation, titles: Titles): string {
  if (!op.requestBody) return '';
  return Object.entries(op.requestBody.content)
    .map(([type, media]) => {
      const s = (media.schema ?? {}) as Record<string, any>;
      const required = new Set<string>(s.required ?? []);
      const rows = Object.entries((s.properties ?? {}) as Record<string, Record<string, any>>).map(([name, p]) => [
        `<code>${escapeHtml(name)}</code>`,
        escapeHtml(describeSchema(p, titles)),
        required.has(name) ? 'required' : '<span class="muted">optional</span>',
        prose([p.title, p.description].filter(Boolean).join(': ')),
      ]);
      const extra = s.additionalProperties === false ? ' Other fields are refused.' : '';
      return (
        `<h4>Body <span class="muted">(${escapeHtml(type)})</span></h4>` +
        (rows.length ? table(['Field', 'Type and limits', '', 'Notes'], rows) : `<p>${escapeHtml(describeSchema(s, titles))}</p>`) +
        (extra ? `<p class="muted">${escapeHtml(extra.trim())}</p>` : '')
      );
    })
    .join('');
}

function answersSection(doc: OpenApiDocument, op: Operation, titles: Titles): string {
  const rows = Object.entries(op.responses).map(([status, r]) => {
    const res: Response = '$ref' in r ? doc.components.responses[refName((r as Ref).$ref)] : (r as Response);
    const [type, media] = Object.entries(res?.content ?? {})[0] ?? [];
    const body = type ? `${escapeHtml(describeSchema(media?.schema, titles))} <span class="muted">(${escapeHtml(type)})</span>` : '';
    const headers = Object.keys(res?.headers ?? {});
    return [
      `<code>${escapeHtml(status)}</code>`,
      prose(res?.description),
      body + (headers.length ? `${body ? '<br>' : ''}<span class="muted">headers:</span> ${headers.map((h) => `<code>${escapeHtml(h)}</code>`).join(', ')}` : ''),
    ];
  });
  return `<h4>Answers</h4>${table(['Status', 'Meaning', 'Body'], rows)}`;
}

function operationHtml(doc: OpenApiDocument, titles: Titles, method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? []).map((p) => [
    `<code>${escapeHtml(p.name)}</code>`,
    escapeHtml(p.in),
    escapeHtml(describeSchema(parameterSchema(p), titles)) + (p.content ? ' <span class="muted">(as JSON)</span>' : ''),
    p.required ? 'required' : '<span class="muted">optional</span>',
    prose(p.description),
  ]);
  return (
    `<article id="${escapeHtml(anchor('op', op.operationId))}">` +
    `<h3><span class="method ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code></h3>` +
    `<p><strong>${prose(op.summary)}</strong>${op.description ? ` ${prose(op.description)}` : ''}</p>` +
    `<p><span class="muted">Who:</span> ${who(op)}</p>` +
    (params.length ? `<h4>Parameters</h4>${table(['Name', 'In', 'Type and limits', '', 'Notes'], params)}` : '') +
    bodySection(op, titles) +
    answersSection(doc, op, titles) +
    `</article>`
  );
}

/** The document as a whole HTML page, grouped by tag (one per resource) in the document's order. */
export function renderDocsPage(doc: OpenApiDocument, documentUrl: string): string {
  const titles: Titles = Object.fromEntries(
    Object.entries(doc.components.schemas).map(([name, s]) => [name, name === 'Error' ? '{ message, errors }' : String(s.title ?? name)]),
  );
  const byTag = new Map<string, string[]>(doc.tags.map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS) {
      const op = item[method];
      if (op) for (const tag of op.tags) byTag.get(tag)?.push(operationHtml(doc, titles, method, path, op));
    }
  const nav = [...byTag.keys()].map((t) => `<li><a href="#${escapeHtml(anchor('tag', t))}">${escapeHtml(t)}</a></li>`).join('');
  const sections = [...byTag]
    .map(([tag, ops]) => `<section id="${escapeHtml(anchor('tag', tag))}"><h2>${escapeHtml(tag)}</h2>${ops.join('')}</section>`)
    .join('');
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(doc.info.title)}</title><style>${STYLE}</style></head><body>` +
    `<header><h1>${escapeHtml(doc.info.title)} <span class="muted">${escapeHtml(doc.info.version)}</span></h1>` +
    `<p>${prose(doc.info.description)}</p>` +
    `<p>The same as OpenAPI 3.1: <a href="${escapeHtml(documentUrl)}">${escapeHtml(documentUrl)}</a></p>` +
    `<nav><ul>${nav}</ul></nav></header><main>${sections}</main></body></html>`
  );
}

/**
 * One request of every scenario to every server before anything is measured: each must answer 2xx,
 * and ours and json-server must answer the same thing (the same page of the same total, the same
 * record), or the comparison would be of different work. Ours' answers also size the ceiling's.
 */
import type { RequestSpec } from './measure.ts';
import type { Scenario, ServerKey } from './scenarios.ts';

export interface Answer {
  status: number;
  text: string;
  total?: number;
}

export interface Check {
  scenario: string;
  ok: boolean;
  detail: string;
  /** Whose answer ours' was compared with: json-server's when left out, else a peer's (`platformatic`). */
  against?: 'platformatic';
}

export async function ask(baseUrl: string, spec: RequestSpec): Promise<Answer> {
  const change = spec.next?.() ?? {};
  const res = await fetch(baseUrl + (change.path ?? spec.path), {
    method: spec.method,
    headers: spec.headers,
    body: spec.method === 'POST' ? (change.body ?? spec.body) : undefined,
  });
  const text = await res.text();
  const range = res.headers.get('content-range');
  const total = range ? Number(range.split('/')[1]) : res.headers.has('x-total-count') ? Number(res.headers.get('x-total-count')) : undefined;
  return { status: res.status, text, total };
}

const parse = (a: Answer) => {
  try {
    return JSON.parse(a.text) as unknown;
  } catch {
    return undefined;
  }
};

/** Asks ours and json-server; throws when either fails, reports (not throws) when they differ. */
export async function preflight(scenario: Scenario, urls: { ours: string; jsonServer?: string }, title: string) {
  const ours = await ask(urls.ours, scenario.ours);
  if (!urls.jsonServer) {
    // No json-server (too many rows for it): ours must still answer, and nothing is compared.
    if (ours.status < 200 || ours.status >= 300)
      throw new Error(`${scenario.key}: ours answered ${ours.status} to the first request: ${ours.text.slice(0, 300)}`);
    return { ours, json: undefined, check: { scenario: scenario.key, ok: true, detail: 'json-server left out; not compared' } as Check };
  }
  const json = await ask(urls.jsonServer, scenario.jsonServer);
  for (const [name, a] of [['ours', ours], ['json-server', json]] as const)
    if (a.status < 200 || a.status >= 300)
      throw new Error(`${scenario.key}: ${name} answered ${a.status} to the first request: ${a.text.slice(0, 300)}`);
  const o = parse(ours);
  const j = parse(json);
  let check: Check;
  if (scenario.compare === 'page') {
    const names = (x: unknown) => (Array.isArray(x) ? x.map((row) => (row as Record<string, unknown>)[title]) : []);
    const same = JSON.stringify(names(o)) === JSON.stringify(names(j));
    const sameTotal = ours.total === json.total;
    check = {
      scenario: scenario.key,
      ok: same && sameTotal,
      detail: `${names(o).length} vs ${names(j).length} rows, totals ${ours.total} vs ${json.total}${same ? ', same rows in the same order' : ', rows DIFFER'}`,
    };
  } else if (scenario.compare === 'one') {
    const ok = (o as { id?: string })?.id !== undefined && (o as { id?: string }).id === (j as { id?: string })?.id;
    check = { scenario: scenario.key, ok, detail: ok ? 'same record' : 'records DIFFER' };
  } else if (scenario.compare === 'created') {
    check = { scenario: scenario.key, ok: ours.status === 201 && json.status === 201, detail: `statuses ${ours.status} / ${json.status}` };
  } else {
    // Nothing of json-server's to compare with (the shop search): both answered, and that is all.
    check = { scenario: scenario.key, ok: true, detail: `not compared (json-server has no such call); statuses ${ours.status} / ${json.status}` };
  }
  return { ours, json, check };
}

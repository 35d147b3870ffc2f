/**
 * The video list (spec §7 "Server-side helper"; resources/videos.ts; the pure parts in src/domain/videos.ts):
 *
 * - `GET /api/front/videos`: public, as the sliders are (the storefront shows videos to visitors). The
 *   stored list of the configured source when there is one; else the provider is searched (latest first,
 *   non-live, up to 9999), the answer stored, and answered. Any failure (no key set, the provider down,
 *   slow or answering an error) answers `{ data: [] }` and stores nothing, so the next ask tries again.
 * - `POST /videos/{id}/refresh` (admin, a row's "Fetch again"): asks again for that record's source and
 *   replaces its videos; a failure is answered (502, the provider's trouble in words) and the stored list kept.
 *
 * Asks for one source that arrive while its fetch is under way wait for that fetch (one fetch per source
 * at a time in a process); the stored record's unique `source` makes two nodes' first fetches one record.
 */
import type { FastifyInstance } from 'fastify';
import { VIDEO_LISTS } from '../../../resources/videos.ts';
import type { Registry } from '../../manifest/index.ts';
import {
  DEFAULT_VIDEO_API_URL,
  VIDEO_FETCH_MAX,
  VIDEO_FETCH_TIMEOUT_MS,
  VIDEO_PAGE_SIZE,
  VIDEO_SETTINGS,
  keptVideos,
  readSearchPage,
  searchUrl,
  sourceKey,
  videosOf,
  type VideoItem,
  type VideoSource,
} from '../../domain/videos.ts';
import type { Db, Row } from '../db/types.ts';
import { badRequest, HttpError } from '../errors.ts';
import { RecordsService } from '../records/service.ts';
import type { HandlerContext, Handlers } from '../routes/handlers.ts';

/** Where the storefront's read is served. */
export const VIDEOS_PATH = '/api/front/videos';
const SITE_SETTINGS = 'siteSettings';
/** The most pages one fetch reads: enough for `VIDEO_FETCH_MAX` items, and a bound on a provider that never stops paging. */
const MAX_PAGES = Math.ceil(VIDEO_FETCH_MAX / VIDEO_PAGE_SIZE);

/** The configured source, from the site settings; `key` and `channel` may be empty (not set up yet). */
export async function videoSource(db: Db): Promise<VideoSource> {
  const names = Object.values(VIDEO_SETTINGS);
  const rows = (await db.selectFrom(SITE_SETTINGS).select(['name', 'value']).where('name', 'in', names).execute()) as Row[];
  const value = (name: string) => String(rows.find((r) => r.name === name)?.value ?? '').trim();
  return { url: value(VIDEO_SETTINGS.url) || DEFAULT_VIDEO_API_URL, key: value(VIDEO_SETTINGS.key), channel: value(VIDEO_SETTINGS.channel) };
}

/** Why a source cannot be asked, or nothing when it can. */
function notSetUp(source: VideoSource): string | undefined {
  if (!source.key) return `The video provider's key is not set (site setting '${VIDEO_SETTINGS.key}').`;
  if (!source.channel) return `The video channel is not set (site setting '${VIDEO_SETTINGS.channel}').`;
  try {
    const url = new URL(source.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
  } catch {
    return `The video provider's address is not a web address (site setting '${VIDEO_SETTINGS.url}').`;
  }
  return undefined;
}

/** Every kept video of the source, page by page; throws, saying why, when any page fails. */
export async function fetchVideos(source: VideoSource): Promise<VideoItem[]> {
  const problem = notSetUp(source);
  if (problem) throw new Error(problem);
  const items: VideoItem[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await fetch(searchUrl(source, token), { signal: AbortSignal.timeout(VIDEO_FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`The video provider answered ${res.status}.`);
    const read = readSearchPage(await res.json());
    items.push(...read.items);
    token = read.next;
    if (!token || items.length >= VIDEO_FETCH_MAX) break;
  }
  return keptVideos(items);
}

const stored = (records: RecordsService, key: string) => records.find(VIDEO_LISTS, 'source', key);
const fields = (videos: VideoItem[]) => ({ data: JSON.stringify(videos), count: videos.length });

/** Fetches in progress, by source key: asks that arrive meanwhile share the one fetch. */
const inFlight = new Map<string, Promise<VideoItem[]>>();

/** The stored list of the source, or a fresh one stored now; `[]` on any failure (logged). */
async function storedOrFetched(records: RecordsService, source: VideoSource, log: FastifyInstance['log']): Promise<VideoItem[]> {
  const key = sourceKey(source);
  const kept = await stored(records, key);
  if (kept) return videosOf(kept.data);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = (async () => {
      try {
        const videos = await fetchVideos(source);
        try {
          await records.create(VIDEO_LISTS, { source: key, ...fields(videos) });
        } catch (error) {
          // Another node stored it first (the unique source): its list is as fresh as ours.
          if (!(await stored(records, key))) throw error;
        }
        return videos;
      } catch (error) {
        log.warn({ err: error }, 'The video list could not be fetched; an empty list is answered.');
        return [];
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, pending);
  }
  return pending;
}

export function registerVideos(app: FastifyInstance, db: Db, registry: Registry) {
  const records = new RecordsService({ db, registry, invalidate: (table) => app.readCache?.invalidate(table) });
  app.get(VIDEOS_PATH, async (_request, reply) => {
    const data = await storedOrFetched(records, await videoSource(db), app.log);
    reply.header('Access-Control-Allow-Origin', '*');
    return { data };
  });
}

/** `POST /videos/{id}/refresh`: the record's source asked again with today's key; the list replaced. */
async function refreshVideoList({ records, params, db }: HandlerContext) {
  const record = await records.reachable(VIDEO_LISTS, params.id);
  const key = String(record.source ?? '');
  const at = key.lastIndexOf('#');
  const settings = await videoSource(db);
  const source: VideoSource = { url: key.slice(0, at), channel: key.slice(at + 1), key: settings.key };
  const problem = at > 0 ? notSetUp(source) : 'This record names no source.';
  if (problem) throw badRequest(problem);
  let videos: VideoItem[];
  try {
    videos = await fetchVideos(source);
  } catch (error) {
    throw new HttpError(502, `The video provider could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return records.update(VIDEO_LISTS, params.id, fields(videos));
}

export const videoHandlers = { refreshVideoList } satisfies Handlers;

/**
 * The video list (spec §7 "Server-side helper": "A video-list search on a video platform's API: latest
 * first, non-live items, up to 9999. The result is cached in the database. The first stored record is
 * returned if present; on failure an empty list is returned"; §9 "Video fetch max 9999").
 *
 * Pure parts, shared by the server's fetch (src/server/front/videos.ts) and its tests: where to ask,
 * how a provider's page reads, and which items are kept. The provider speaks the YouTube Data API's
 * `search` shape (`items[].id.videoId`, `items[].snippet`, `nextPageToken`); its address, key and
 * channel are site settings, so a stand-in server (the tests') or another deployment is a setting away.
 */

/** §9: the most items a video list holds. */
export const VIDEO_FETCH_MAX = 9999;
/** The most a provider's search answers a page (YouTube's bound): a list of 9999 takes up to 200 pages. */
export const VIDEO_PAGE_SIZE = 50;
/** A page's answer is waited for this long; a slower provider counts as a failure (an empty list). */
export const VIDEO_FETCH_TIMEOUT_MS = 10_000;

/** The site settings (resources/content.ts `siteSettings`, by name) the fetch reads. */
export const VIDEO_SETTINGS = Object.freeze({
  /** The provider's API root, e.g. 'https://www.googleapis.com/youtube/v3'. */
  url: 'video-api-url',
  /** The API key sent as `key`. Empty: nothing is fetched (the list is empty until it is set). */
  key: 'video-api-key',
  /** The channel whose videos are listed. */
  channel: 'video-channel-id',
});

/** The provider the demo data names: YouTube's Data API. */
export const DEFAULT_VIDEO_API_URL = 'https://www.googleapis.com/youtube/v3';

/** One kept video, as the list answers it. */
export interface VideoItem {
  id: string;
  title: string;
  description: string;
  publishedAt: string;
  thumbnail: string | null;
  channelTitle: string;
}

/** What a search is asked with. */
export interface VideoSource {
  url: string;
  key: string;
  channel: string;
}

/** What names a stored list: the provider's address and the channel (the key is not part of it). */
export const sourceKey = (s: Pick<VideoSource, 'url' | 'channel'>) => `${s.url.replace(/\/+$/, '')}#${s.channel}`;

/** The address of one page of the search: latest first, videos only, the page token when there is one. */
export function searchUrl(source: VideoSource, pageToken?: string, pageSize = VIDEO_PAGE_SIZE): string {
  const url = new URL(`${source.url.replace(/\/+$/, '')}/search`);
  url.searchParams.set('part', 'snippet');
  url.searchParams.set('channelId', source.channel);
  url.searchParams.set('order', 'date');
  url.searchParams.set('type', 'video');
  url.searchParams.set('maxResults', String(pageSize));
  url.searchParams.set('key', source.key);
  if (pageToken) url.searchParams.set('pageToken', pageToken);
  return url.toString();
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * One page of a provider's answer: its kept items (videos that are not live or upcoming, each with an
 * id and a publication time) and the next page's token. Anything that is not the search's shape throws,
 * so a provider's error page counts as a failure, never as an empty channel.
 */
export function readSearchPage(body: unknown): { items: VideoItem[]; next?: string } {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { items?: unknown }).items)) {
    throw new Error('The video provider answered something that is not a search result.');
  }
  const page = body as { items: unknown[]; nextPageToken?: unknown };
  const items: VideoItem[] = [];
  for (const raw of page.items) {
    const item = raw as { id?: { videoId?: unknown }; snippet?: Record<string, unknown> } | null;
    const id = text(item?.id?.videoId);
    const snippet = item?.snippet ?? {};
    // §7 "non-live items": a live or upcoming broadcast is left out ('none' is a finished video).
    const live = text(snippet.liveBroadcastContent);
    const publishedAt = text(snippet.publishedAt);
    if (!id || (live && live !== 'none') || Number.isNaN(Date.parse(publishedAt))) continue;
    const thumbnails = (snippet.thumbnails ?? {}) as Record<string, { url?: unknown } | undefined>;
    const thumbnail = text(thumbnails.high?.url) || text(thumbnails.medium?.url) || text(thumbnails.default?.url) || null;
    items.push({ id, title: text(snippet.title), description: text(snippet.description), publishedAt, thumbnail, channelTitle: text(snippet.channelTitle) });
  }
  const next = typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined;
  return { items, next };
}

/**
 * The list as kept: each video once, latest first (the provider's order is not trusted across pages),
 * at most `VIDEO_FETCH_MAX`.
 */
export function keptVideos(items: readonly VideoItem[]): VideoItem[] {
  const seen = new Set<string>();
  const once = items.filter((v) => !seen.has(v.id) && (seen.add(v.id), true));
  return once.sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt) || a.id.localeCompare(b.id)).slice(0, VIDEO_FETCH_MAX);
}

/** A stored record's `data` (a JSON string, §3) as the list; anything unreadable is an empty list. */
export function videosOf(data: unknown): VideoItem[] {
  if (typeof data !== 'string') return [];
  try {
    const parsed = JSON.parse(data);
    return Array.isArray(parsed) ? (parsed as VideoItem[]) : [];
  } catch {
    return [];
  }
}

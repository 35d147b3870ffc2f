/** The video list's pure parts (src/domain/videos.ts): the search address, a page read, the kept list. */
import { describe, expect, it } from 'vitest';
import { VIDEO_FETCH_MAX, keptVideos, readSearchPage, searchUrl, sourceKey, videosOf, type VideoItem } from '../../src/domain/videos.ts';

const item = (id: string, publishedAt: string, live?: string) => ({ id: { videoId: id }, snippet: { publishedAt, title: id, liveBroadcastContent: live } });
const kept = (id: string, publishedAt: string): VideoItem => ({ id, title: id, description: '', publishedAt, thumbnail: null, channelTitle: '' });

describe('the video list', () => {
  it('asks latest first, videos of the channel only, with the key and the page token', () => {
    const url = new URL(searchUrl({ url: 'https://api.test/v3/', key: 'K', channel: 'C' }, 'T2'));
    expect(url.pathname).toBe('/v3/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ part: 'snippet', channelId: 'C', order: 'date', type: 'video', maxResults: '50', key: 'K', pageToken: 'T2' });
    expect(sourceKey({ url: 'https://api.test/v3/', channel: 'C' })).toBe('https://api.test/v3#C');
  });

  it('keeps finished videos of a page and leaves out live, upcoming, id-less and undated items', () => {
    const page = readSearchPage({
      nextPageToken: 'N',
      items: [item('a', '2026-01-01T00:00:00Z', 'none'), item('b', '2026-01-02T00:00:00Z', 'live'), item('c', '2026-01-03T00:00:00Z', 'upcoming'), item('', '2026-01-01T00:00:00Z'), item('d', 'yesterday'), item('e', '2026-01-04T00:00:00Z')],
    });
    expect(page.items.map((v) => v.id)).toEqual(['a', 'e']);
    expect(page.next).toBe('N');
  });

  it('takes an answer that is not a search result for a failure, never for an empty channel', () => {
    for (const body of [null, 'text', { error: { code: 403 } }, { items: 'no' }]) expect(() => readSearchPage(body)).toThrow(/not a search result/);
    expect(readSearchPage({ items: [] })).toEqual({ items: [], next: undefined });
  });

  it('keeps each video once, latest first, at most 9999', () => {
    expect(keptVideos([kept('a', '2026-01-01T00:00:00Z'), kept('b', '2026-03-01T00:00:00Z'), kept('a', '2026-01-01T00:00:00Z')]).map((v) => v.id)).toEqual(['b', 'a']);
    const many = Array.from({ length: VIDEO_FETCH_MAX + 5 }, (_, i) => kept(`v${i}`, new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString()));
    const list = keptVideos(many);
    expect(list).toHaveLength(VIDEO_FETCH_MAX);
    expect(list[0].id).toBe(`v${VIDEO_FETCH_MAX + 4}`);
  });

  it('reads a stored record’s JSON string, and anything unreadable as an empty list', () => {
    expect(videosOf(JSON.stringify([kept('a', '2026-01-01T00:00:00Z')]))).toHaveLength(1);
    for (const data of [null, '', '{', '{"a":1}', 5]) expect(videosOf(data)).toEqual([]);
  });
});

/**
 * The storefront's slider data (`GET /api/front/sliders`), read with §9's settings: page 1, limit
 * 1000, a 10 s timeout, kept 1800 s, read again on mount after 900 s and on focus or reconnect. A
 * failure is told with §8's message for the type ('Failed to load agent data').
 */
import { useQuery } from '@tanstack/react-query';
import { SLIDER_DEFAULTS, SLIDER_LOAD_ERRORS, type SliderEntries, type SliderType } from '../../domain/sliders.ts';

/** Where the sliders are read (public: no session needed). */
export const SLIDERS_URL = '/api/front/sliders';

/** The address of one page of a type's entries. */
export function sliderUrl(type: SliderType, page: number = SLIDER_DEFAULTS.page, limit: number = SLIDER_DEFAULTS.limit): string {
  return `${SLIDERS_URL}?${new URLSearchParams({ type, page: String(page), limit: String(limit) })}`;
}

/**
 * One page of a type's entries. Rejects with the type's load error when the call fails, times out
 * (SLIDER_DEFAULTS.timeoutMs) or answers anything but `{ data: [...] }`.
 */
export async function fetchSliders<T extends SliderType>(type: T, signal?: AbortSignal, fetcher: typeof fetch = fetch): Promise<SliderEntries[T][]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SLIDER_DEFAULTS.timeoutMs);
  const cancel = () => controller.abort();
  signal?.addEventListener('abort', cancel);
  try {
    const res = await fetcher(sliderUrl(type), { signal: controller.signal, headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(SLIDER_LOAD_ERRORS[type]);
    const body = (await res.json()) as { data?: unknown };
    if (!Array.isArray(body?.data)) throw new Error(SLIDER_LOAD_ERRORS[type]);
    return body.data as SliderEntries[T][];
  } catch {
    throw new Error(SLIDER_LOAD_ERRORS[type]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
  }
}

/** A slider's entries, whether they are loading, and the load error to show (§8), if any. */
export function useSliders<T extends SliderType>(type: T) {
  const query = useQuery({
    queryKey: ['sliders', type, SLIDER_DEFAULTS.page, SLIDER_DEFAULTS.limit],
    queryFn: ({ signal }) => fetchSliders(type, signal),
    staleTime: SLIDER_DEFAULTS.staleMs,
    gcTime: SLIDER_DEFAULTS.cacheMs,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
    retry: 1,
  });
  return {
    entries: query.data ?? [],
    isPending: query.isPending,
    error: query.error ? SLIDER_LOAD_ERRORS[type] : undefined,
  };
}

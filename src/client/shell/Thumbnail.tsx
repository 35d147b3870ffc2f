/** A small image that falls back to the site logo (spec §2) when its URL does not load. */
import type { SyntheticEvent } from 'react';

export const LOGO_FALLBACK = '/logo.jpg';

function showFallback(event: SyntheticEvent<HTMLImageElement>) {
  const img = event.currentTarget;
  // Once only: a missing fallback must not loop.
  if (img.dataset.fallback) return;
  img.dataset.fallback = '1';
  img.src = LOGO_FALLBACK;
}

export function Thumbnail({ src, alt = '', width = 48, height = 32 }: { src?: unknown; alt?: string; width?: number; height?: number }) {
  const url = typeof src === 'string' && src ? src : LOGO_FALLBACK;
  return (
    <img
      key={url}
      src={url}
      alt={alt}
      width={width}
      height={height}
      loading="lazy"
      onError={showFallback}
      style={{ objectFit: 'cover', borderRadius: 4, verticalAlign: 'middle' }}
    />
  );
}

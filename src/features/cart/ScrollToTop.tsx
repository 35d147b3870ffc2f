/**
 * The scroll-to-top button (spec §4 "Scroll-to-top button appears after scrolling more than 400 px",
 * §9 "Scroll-to-top threshold 400 px"): a floating button, bottom right, shown once the page is
 * scrolled past the threshold; it scrolls back to the top.
 */
import { useEffect, useState } from 'react';
import { Fab, Zoom } from '@mui/material';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';

export const SCROLL_TOP_THRESHOLD = 400;
export const SCROLL_TOP_LABEL = 'Scroll to top';

export function ScrollToTop() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const check = () => setShown(globalThis.scrollY > SCROLL_TOP_THRESHOLD);
    check();
    globalThis.addEventListener('scroll', check, { passive: true });
    return () => globalThis.removeEventListener('scroll', check);
  }, []);
  return (
    <Zoom in={shown} unmountOnExit>
      <Fab
        color="primary"
        size="medium"
        aria-label={SCROLL_TOP_LABEL}
        onClick={() => globalThis.scrollTo({ top: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: (t) => t.zIndex.speedDial }}
      >
        <KeyboardArrowUpIcon />
      </Fab>
    </Zoom>
  );
}

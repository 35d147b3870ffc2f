/**
 * Imported first by main.tsx, so it runs before any module that makes a zod schema: the page's CSP
 * has no 'unsafe-eval'. zod decides when each `z.object()` is *constructed* whether it may compile a
 * fast parser with `new Function`, probing once with a caught `new Function('')`; a strict CSP
 * reports even that caught probe as a violation. `jitless` skips both, so nothing is ever evaluated.
 */
import { config } from 'zod';

config({ jitless: true });

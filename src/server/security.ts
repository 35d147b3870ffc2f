/** Headers every answer carries: no sniffing, no framing, no referrer leaks, a strict CSP for pages. */
import type { FastifyInstance } from 'fastify';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Emotion (MUI's styling) writes <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const COMMON = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin', 'X-Frame-Options': 'DENY' };
const API = { ...COMMON, 'Cache-Control': 'no-store' };
const PAGE = { ...COMMON, 'Content-Security-Policy': CSP };

export function securityHeaders(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every answer, and a promise per answer is measurable.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(request.url.startsWith('/api/') ? API : PAGE);
    done(null, payload);
  });
}

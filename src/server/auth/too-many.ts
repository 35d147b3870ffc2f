/** The 429 of the self-service calls (sign-up, reset links): how long to wait, in words and in `Retry-After`. */
import type { FastifyReply } from 'fastify';

/** Answers 429 with `Retry-After`: `what` ('Too many sign-ups from this address.') and when to try again. */
export function tooMany(reply: FastifyReply, waitMs: number, what: string) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const [n, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return reply
    .code(429)
    .header('Retry-After', String(seconds))
    .send({ message: `${what} Try again in ${n} ${unit}${n === 1 ? '' : 's'}.` });
}

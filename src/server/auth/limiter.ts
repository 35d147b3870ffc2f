/**
 * Slows password guessing: after `max` failed sign-ins for one address and email within the window,
 * further attempts are refused (429) until the window passes. In memory: one server's view.
 */
export function failureLimiter(max = 10, windowMs = 15 * 60_000) {
  const failures = new Map<string, { count: number; since: number }>();
  return {
    blocked(key: string, now = Date.now()) {
      const f = failures.get(key);
      if (f && now - f.since > windowMs) failures.delete(key);
      return (failures.get(key)?.count ?? 0) >= max;
    },
    fail(key: string, now = Date.now()) {
      const f = failures.get(key);
      if (!f || now - f.since > windowMs) failures.set(key, { count: 1, since: now });
      else f.count++;
    },
    succeed(key: string) {
      failures.delete(key);
    },
  };
}

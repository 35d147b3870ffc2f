/**
 * `GET /email-history/stats`: how many emails were recorded, by status and by kind, and in the last
 * 24 hours; what the admin looks at first when someone says "I never got the email".
 */
import { EMAIL_HISTORY, EMAIL_STATUS, type EmailStatus } from '../../../resources/email.ts';
import type { Handler } from '../routes/handlers.ts';

export interface EmailStats {
  total: number;
  /** Every status, 0 when none has it. */
  byStatus: Record<EmailStatus, number>;
  /** Per kind, the kinds that occur. */
  byKind: Record<string, number>;
  /** Recorded in the last 24 hours. */
  lastDay: number;
  /** When the newest email was recorded (ISO), or null. */
  lastAt: string | null;
}

const DAY_MS = 86_400_000;

export const emailHistoryStats: Handler = async ({ db }): Promise<EmailStats> => {
  const [statuses, kinds, recent] = await Promise.all([
    db.selectFrom(EMAIL_HISTORY).select(['status', (eb) => eb.fn.countAll().as('n')]).groupBy('status').execute(),
    db.selectFrom(EMAIL_HISTORY).select(['kind', (eb) => eb.fn.countAll().as('n')]).groupBy('kind').execute(),
    db
      .selectFrom(EMAIL_HISTORY)
      .select((eb) => eb.fn.countAll().as('n'))
      .where('sentAt', '>=', new Date(Date.now() - DAY_MS).toISOString())
      .executeTakeFirstOrThrow(),
  ]);
  const byStatus = Object.fromEntries(EMAIL_STATUS.map((s) => [s, 0])) as Record<EmailStatus, number>;
  let total = 0;
  for (const row of statuses) {
    const n = Number(row.n);
    total += n;
    if ((EMAIL_STATUS as readonly string[]).includes(String(row.status))) byStatus[row.status as EmailStatus] = n;
  }
  const byKind: Record<string, number> = Object.create(null);
  for (const row of kinds) byKind[String(row.kind ?? '')] = Number(row.n);
  const newest = await db.selectFrom(EMAIL_HISTORY).select('sentAt').orderBy('sentAt', 'desc').limit(1).executeTakeFirst();
  return { total, byStatus, byKind, lastDay: Number(recent.n), lastAt: (newest?.sentAt as string | undefined) ?? null };
};

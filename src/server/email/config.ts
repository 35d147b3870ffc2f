/**
 * Email settings from the environment, in the manner of src/server/config.ts (which could hold them
 * as `Config.email` once the lead folds them in):
 * - `SMTP_URL`: where mail is handed over, as nodemailer reads it (`smtp://user:pass@host:587`,
 *   `smtps://…:465`). Unset or empty: nothing is sent, every email is only recorded in the history.
 * - `EMAIL_FROM`: the sender (default `Marketplace <no-reply@localhost>`).
 */
export interface EmailConfig {
  smtpUrl?: string;
  from: string;
}

export const DEFAULT_EMAIL_FROM = 'Marketplace <no-reply@localhost>';

/** Reads the settings; an `SMTP_URL` that is not an smtp(s) URL stops with a message. */
export function readEmailConfig(env: NodeJS.ProcessEnv = process.env): EmailConfig {
  const smtpUrl = (env.SMTP_URL ?? '').trim() || undefined;
  if (smtpUrl) {
    let protocol = '';
    try {
      protocol = new URL(smtpUrl).protocol;
    } catch {
      // reported below
    }
    if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  return { smtpUrl, from: (env.EMAIL_FROM ?? '').trim() || DEFAULT_EMAIL_FROM };
}

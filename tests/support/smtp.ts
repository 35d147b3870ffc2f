/**
 * A real SMTP server on a free local port, in the test's process (the `smtp-server` package), that keeps
 * what it receives (plain SMTP, no login). Point the email layer at it with `SMTP_URL = smtp.url`.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent: headers and the (possibly quoted-printable) body. */
  raw: string;
  /** The body's text, quoted-printable undone (soft line breaks joined, `=XX` decoded). */
  text: string;
}

export interface TestSmtp {
  url: string;
  received: ReceivedMail[];
  /** The mails received so far for `to`. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/** Undoes quoted-printable (RFC 2045 §6.7), as nodemailer writes lines longer than 76 characters. */
export function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(text.replace(/=\r?\n/g, ''), 'latin1');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === 0x3d ? bytes.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(bytes[i]);
  }
  return Buffer.from(out).toString('utf8');
}

function bodyText(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const [head, body] = split < 0 ? ['', raw] : [raw.slice(0, split), raw.slice(split).replace(/^\r?\n\r?\n/, '')];
  return /^Content-Transfer-Encoding:\s*quoted-printable/im.test(head) ? decodeQuotedPrintable(body) : body;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: bodyText(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address) => received.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** The reset link a mail carries (`…/#/reset-password?token=…`), or undefined. */
export function resetLinkOf(mail: ReceivedMail | undefined): string | undefined {
  return mail?.text.match(/https?:\/\/\S+#\/reset-password\?token=[\w-]+/)?.[0];
}

/**
 * The SMTP transport: one nodemailer transport per SMTP URL, made on first use and kept (it pools its
 * connections). Short timeouts: an email is sent while a person waits for an answer, and a mail server
 * that does not answer must not hold that request for nodemailer's default two minutes.
 */
import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';

/** nodemailer, loaded when the first transport is made (SMTP_URL set): without one it is never loaded. */
const loadNodemailer = () => createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer');

/** How long to wait for the SMTP server to accept a connection, greet, or answer a command. */
export const SMTP_TIMEOUT_MS = 10_000;

const transports = new Map<string, Transporter>();

/** The transport for `smtpUrl` (made once). */
export function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    // nodemailer takes its options from the URL's query; a timeout the URL sets itself is kept.
    const url = new URL(smtpUrl);
    for (const name of ['connectionTimeout', 'greetingTimeout', 'socketTimeout'])
      if (!url.searchParams.has(name)) url.searchParams.set(name, String(SMTP_TIMEOUT_MS));
    transport = loadNodemailer().createTransport(url.toString());
    transports.set(smtpUrl, transport);
  }
  return transport;
}

/** Closes every transport made (a server shutting down, a test ending). */
export function closeTransports() {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

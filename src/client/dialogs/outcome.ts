/**
 * What a dialog's call answered, turned into the toasts of spec §7/§8: 'Success!' with the dialog's
 * message, or the failure title with the server's answer as the description.
 */
import { messages, labelOf, type FieldDef } from '../../manifest/index.ts';
import type { Toast } from '../shell/toast.tsx';

/** The server's 400 shape (docs/architecture.md): `{ message, errors: { field: [messages] } }`. */
export interface ServerAnswer {
  message?: unknown;
  errors?: Record<string, unknown>;
  [key: string]: unknown;
}

/** 'Success!' (or the dialog's own `successTitle`) with the dialog's message. */
export function successToast(description: string, title: string = messages.success): Toast {
  return { title, description, severity: 'success' };
}

/** The thrown value of a failed call: an HttpError carries `body` (parsed JSON) and `status`. */
export function answerOf(error: unknown): unknown {
  if (error && typeof error === 'object' && 'body' in error && (error as { body: unknown }).body != null)
    return (error as { body: unknown }).body;
  if (error instanceof Error) return error.message;
  return error;
}

/** Field errors of an answer as `{ field: [messages] }`, or undefined when it names none. */
export function fieldErrorsOf(answer: unknown): Record<string, string[]> | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const errors = (answer as ServerAnswer).errors;
  if (!errors || typeof errors !== 'object') return undefined;
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(errors)) {
    const list = (Array.isArray(value) ? value : [value]).filter((m) => m != null).map(String);
    if (list.length) out[key] = list;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The server's answer as readable text: its message, then one line per field error labelled as the
 * form labels it. Anything else is shown as it came, so nothing the server said is hidden.
 */
export function describeAnswer(answer: unknown, fields: readonly FieldDef[] = []): string {
  if (answer == null || answer === '') return '';
  if (typeof answer !== 'object') return String(answer);
  const { message, errors, ...rest } = answer as ServerAnswer;
  const lines: string[] = [];
  if (message != null && message !== '') lines.push(String(message));
  const byField = fieldErrorsOf(answer);
  if (byField) {
    for (const [key, list] of Object.entries(byField)) {
      const f = fields.find((x) => x.name === key);
      const label = key === '_' ? '' : `${f ? labelOf(f) : key}: `;
      lines.push(`${label}${list.join(' ')}`);
    }
  } else if (errors != null) {
    lines.push(JSON.stringify(errors));
  }
  if (!lines.length && Object.keys(rest).length) lines.push(JSON.stringify(rest));
  return lines.join('\n');
}

/**
 * The failure title with the server's answer; `fallback` (a dialog's `failureFallback`) when no answer
 * came (the network failed) or it said nothing.
 */
export function failureToast(title: string, error: unknown, fields: readonly FieldDef[] = [], fallback?: string): Toast {
  const answered = error && typeof error === 'object' && 'body' in error && (error as { body: unknown }).body != null;
  const description = fallback && !answered ? '' : describeAnswer(answerOf(error), fields);
  return { title, description: description || fallback || '', severity: 'error' };
}

/** Whether `record`'s list `already.field` holds an entry of the user `me` (a dialog's `AlreadyDef`). */
export function alreadyIn(record: Record<string, unknown> | undefined, field: string, me: unknown): boolean {
  const list = record?.[field];
  if (!Array.isArray(list) || me === undefined || me === null || me === '') return false;
  return list.some((entry) => entry && typeof entry === 'object' && String((entry as { userId?: unknown }).userId) === String(me));
}

/** Whether a failed call is the server's refusal of one who already took part (409 with `message`). */
export function isAlreadyRefusal(error: unknown, message: string): boolean {
  const status = (error as { status?: number } | null)?.status;
  const answer = answerOf(error);
  return status === 409 && !!answer && typeof answer === 'object' && (answer as ServerAnswer).message === message;
}

/**
 * The path an answer's `redirectUrl` names, when it is one of this app's ('/support/requests/1'); another
 * site's address ('//evil.example', 'https://…') or anything else is not followed.
 */
export function redirectOf(answer: unknown): string | undefined {
  const to = answer && typeof answer === 'object' ? (answer as { redirectUrl?: unknown }).redirectUrl : undefined;
  return typeof to === 'string' && to.startsWith('/') && !to.startsWith('//') && !to.includes('\\') ? to : undefined;
}

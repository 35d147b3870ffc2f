/** What a failed support call tells the user: the server's message, or spec §8's 'Someting went wrong.'. */
import { messages } from '../../../manifest/index.ts';

export function failureText(e: unknown): string {
  const message = e && typeof e === 'object' && 'message' in e ? (e as { message: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : messages.deleteFailed;
}

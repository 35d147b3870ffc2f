/** Errors the routes throw; the app's error handler turns them into `{ message, errors? }` answers. */
import { messages } from '../manifest/messages.ts';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
  }
}

export const VALIDATION_FAILED = messages.validationFailed;
/** What a server error (5xx) is answered: its details are logged, never sent. */
export const INTERNAL_ERROR = 'Internal server error.';

export const badRequest = (message: string, errors?: Record<string, string[]>) => new HttpError(400, message, errors);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

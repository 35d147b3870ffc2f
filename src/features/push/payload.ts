/**
 * What a push carries, encrypted, to the browser: public/sw.js shows `title` and `body` and opens `url`
 * (a path of this app) when the notification is clicked. The server makes it from a notification
 * (src/features/push/server/send.ts `payloadOf`).
 */
export interface PushPayload {
  /** The notification's id: the shown notification's tag, so a push repeated replaces its first showing. */
  id: string;
  title: string;
  body: string;
  /** A path of this app ('/' unless the notification's metadata names one). */
  url: string;
  type: string;
}

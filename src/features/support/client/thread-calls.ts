/**
 * The calls a live thread makes, read from the manifests (resources/support-requests.ts): a support
 * request's replies (`/support-panel/{id}/reply`, `/typing`) or a chat's messages
 * (`/api/chat/group/{id}/messages`, `/typing`). One shape for both, so one thread component draws them.
 */
import { chatGroups, supportRequests } from '../../../../resources/support-requests.ts';
import type { Call } from '../../../manifest/index.ts';
import { send } from '../../../client/providers/http.ts';
import { chatThread, requestThread, type ThreadMessage } from '../contract.ts';

export type ThreadKind = 'request' | 'chat';

interface ThreadCalls {
  read: Call;
  send: Call;
  typing: Call;
  /** The thread's name in socket events (`request:<id>`, `chat:<id>`). */
  thread(id: string): string;
}

const CALLS: Record<ThreadKind, ThreadCalls> = {
  request: {
    read: supportRequests.operations.thread.call,
    send: supportRequests.operations.reply.call,
    typing: supportRequests.operations.typing.call,
    thread: requestThread,
  },
  chat: {
    read: chatGroups.operations.messages.call,
    send: chatGroups.operations.send.call,
    typing: chatGroups.operations.typing.call,
    thread: chatThread,
  },
};

export const threadName = (kind: ThreadKind, id: string) => CALLS[kind].thread(id);

export async function readThread(kind: ThreadKind, id: string): Promise<ThreadMessage[]> {
  const { json } = await send(CALLS[kind].read, { id });
  return Array.isArray(json) ? (json as ThreadMessage[]) : [];
}

/** Sends a message; answers it as stored (a request's reply answers `{ message, request }`). */
export async function sendMessage(kind: ThreadKind, id: string, content: string): Promise<ThreadMessage> {
  const { json } = await send(CALLS[kind].send, { id }, { content });
  return (kind === 'request' ? json.message : json) as ThreadMessage;
}

export function sendTyping(kind: ThreadKind, id: string, typing: boolean): void {
  // Who is typing is a courtesy: a lost one is not worth telling the user about.
  send(CALLS[kind].typing, { id }, { typing }).catch(() => {});
}

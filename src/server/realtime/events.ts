/**
 * What a connected client may say (spec §7: `join`, `user:online`, `user:offline`), each validated: a
 * client joins only its own room (it is put there on connect; anything else, an admin room too, is
 * refused), and presence is one flag on its socket.
 */
import type { Socket } from 'socket.io';
import { z } from 'zod';
import { SOCKET_EVENTS, userRoom, type JoinAnswer } from '../../features/notifications/contract.ts';
import type { SocketData } from './handshake.ts';

export const JOIN_REFUSED = 'You may only join your own room.';
export const INVALID_MESSAGE = 'Invalid message.';

/** `join`'s payload: the room's name, or `{ room }`, or `{ userId }` (whose room). */
const joinPayload = z.union([
  z.string().max(200),
  z.strictObject({ room: z.string().max(200) }),
  z.strictObject({ userId: z.string().max(200) }),
]);
/** `user:online` / `user:offline`: nothing, or the user's own id. */
const presencePayload = z.union([z.undefined(), z.strictObject({ userId: z.string().max(200).optional() })]);

type Ack = (answer: JoinAnswer) => void;

/** Splits a handler's arguments into the payload and the acknowledgement callback, if the client asked for one. */
function payloadAndAck(args: unknown[]): [unknown, Ack | undefined] {
  const last = args.at(-1);
  if (typeof last === 'function') return [args.length > 1 ? args[0] : undefined, last as Ack];
  return [args[0], undefined];
}

export function listen(socket: Socket) {
  const data = socket.data as SocketData;
  const own = userRoom(data.userId);

  socket.on(SOCKET_EVENTS.join, (...args: unknown[]) => {
    const [payload, ack] = payloadAndAck(args);
    const parsed = joinPayload.safeParse(payload);
    if (!parsed.success) return ack?.({ ok: false, message: INVALID_MESSAGE });
    const value = parsed.data;
    const room = typeof value === 'string' ? value : 'room' in value ? value.room : userRoom(value.userId);
    if (room !== own) return ack?.({ ok: false, message: JOIN_REFUSED });
    void socket.join(own);
    ack?.({ ok: true });
  });

  const presence = (online: boolean) => (...args: unknown[]) => {
    const [payload, ack] = payloadAndAck(args);
    const parsed = presencePayload.safeParse(payload);
    if (!parsed.success) return ack?.({ ok: false, message: INVALID_MESSAGE });
    if (parsed.data?.userId !== undefined && parsed.data.userId !== data.userId) return ack?.({ ok: false, message: INVALID_MESSAGE });
    data.online = online;
    ack?.({ ok: true });
  };
  socket.on(SOCKET_EVENTS.online, presence(true));
  socket.on(SOCKET_EVENTS.offline, presence(false));
}

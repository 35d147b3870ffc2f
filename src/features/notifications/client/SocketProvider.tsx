/**
 * One realtime socket per signed-in session, for the whole shell: opened once the user is known, closed
 * when the layout goes (sign-out) or the user changes. Parts of the shell (the bell, a support thread)
 * listen through `useSocketListeners` instead of opening sockets of their own.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useGetIdentity } from 'react-admin';
import { openSessionSocket, type SessionSocket, type SocketListeners, type SocketOptions } from './socket.ts';

type Listeners = Partial<SocketListeners>;

/** The listeners of the mounted parts; each is a ref, so a re-render never re-subscribes. */
class SocketHub {
  private readonly all = new Set<{ current: Listeners }>();
  /** The open socket; undefined before sign-in. */
  session?: SessionSocket;
  add(listeners: { current: Listeners }): () => void {
    this.all.add(listeners);
    return () => void this.all.delete(listeners);
  }
  /** What the socket hears, told to every listener. */
  readonly tell: SocketListeners = {
    notification: (n) => this.all.forEach((l) => l.current.notification?.(n)),
    unread: (a) => this.all.forEach((l) => l.current.unread?.(a)),
    reconnected: () => this.all.forEach((l) => l.current.reconnected?.()),
    event: (name, payload) => this.all.forEach((l) => l.current.event?.(name, payload)),
  };
}

const SocketContext = createContext<SocketHub | null>(null);

export function NotificationSocketProvider({ children, url }: { children: ReactNode } & SocketOptions) {
  const { identity } = useGetIdentity();
  const userId = identity?.id === undefined || identity?.id === null ? undefined : String(identity.id);
  const [hub] = useState(() => new SocketHub());

  useEffect(() => {
    if (!userId) return;
    const session = openSessionSocket(userId, hub.tell, { url });
    hub.session = session;
    return () => {
      session.close();
      if (hub.session === session) hub.session = undefined;
    };
  }, [userId, url, hub]);

  return <SocketContext.Provider value={hub}>{children}</SocketContext.Provider>;
}

/**
 * Listens to the session's socket while the calling component is mounted. The listeners may change on
 * every render (the latest are called); outside a provider nothing is heard.
 */
export function useSocketListeners(listeners: Listeners) {
  const hub = useContext(SocketContext);
  const latest = useRef(listeners);
  latest.current = listeners;
  useEffect(() => hub?.add(latest), [hub]);
}

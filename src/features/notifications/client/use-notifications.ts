/**
 * The bell's state: the user's notifications page by page (react-query's infinite query, as the house
 * reads data), what arrives on the socket, the unread count, and marking read. Failures are told with
 * §8's toasts; when the list cannot be read the notifications cached in the browser are shown instead.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '../../../client/shell/toast.tsx';
import { audienceRole, NOTIFICATIONS, type NotificationWire } from '../contract.ts';
import { forgetOtherUsers, readCache, writeCache } from './cache.ts';
import { fetchNotificationPage, markAllNotificationsRead, markNotificationRead } from './calls.ts';
import { debounceArrivalToasts } from './arrival-toasts.ts';
import { mergeList, nextPageAfter } from './list-state.ts';
import { NOTIFICATION_FAILURES } from './messages.ts';
import { useSocketListeners } from './SocketProvider.tsx';

export interface NotificationsState {
  list: NotificationWire[];
  unreadCount: number;
  /** The first page is on its way (nothing to show yet). */
  loading: boolean;
  /** The list could not be read: `list` is the browser's cache. */
  fromCache: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  markRead(id: string): void;
  markAllRead(): void;
}

export function useNotifications(userId: string): NotificationsState {
  const toast = useToast();
  const queryClient = useQueryClient();
  const queryKey = useMemo(() => ['notifications', userId], [userId]);
  const [arrived, setArrived] = useState<NotificationWire[]>([]);
  const [readIds, setReadIds] = useState<ReadonlySet<string>>(() => new Set());
  const [unread, setUnread] = useState<number | undefined>(undefined);
  // Read once per user, before this session writes to it; nobody else's is left behind.
  const cached = useMemo(() => {
    forgetOtherUsers(userId);
    return readCache(userId);
  }, [userId]);

  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchNotificationPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (_last, pages) => nextPageAfter(pages),
    // The cached list stands in at once; the socket's reconnection or the next focus reads again.
    retry: false,
  });

  const pages = query.data?.pages;
  const fromCache = !pages && query.isError;
  const list = useMemo(
    () => mergeList(pages ?? (fromCache ? [{ data: cached, unreadCount: 0 }] : []), { arrived, readIds }),
    [pages, fromCache, cached, arrived, readIds],
  );

  // The server's count, whenever pages are read.
  useEffect(() => {
    if (pages?.length) setUnread(pages[pages.length - 1].unreadCount);
  }, [pages]);
  useEffect(() => {
    if (query.errorUpdateCount > 0 && query.isError) toast({ title: NOTIFICATION_FAILURES.load, severity: 'error' });
  }, [query.errorUpdatedAt, query.errorUpdateCount, query.isError, toast]);
  // Kept once something was read (or while the cache stands in, with what arrived since): never the
  // empty list of a first page still on its way, which would wipe the cache a failure needs.
  useEffect(() => {
    if (pages || fromCache) writeCache(userId, list);
  }, [userId, list, pages, fromCache]);

  const known = useRef(new Set<string>());
  known.current = new Set(list.map((n) => n.id));
  const unreadRef = useRef(unread);
  unreadRef.current = unread;

  const showRef = useRef(toast);
  showRef.current = toast;
  const [toasts] = useState(() => debounceArrivalToasts((t) => showRef.current(t)));
  useEffect(() => () => toasts.cancel(), [toasts]);

  const reread = useCallback(() => void queryClient.invalidateQueries({ queryKey }), [queryClient, queryKey]);
  useSocketListeners({
    notification(incoming) {
      // One to everyone of the caller's role comes once to the role's room (the server leaves out whoever
      // caused it): it is the caller's as any other.
      const n = audienceRole(incoming.userId) ? { ...incoming, userId } : incoming;
      if (n.userId !== userId || known.current.has(n.id)) return;
      known.current.add(n.id);
      setArrived((prev) => [n, ...prev].slice(0, NOTIFICATIONS.cacheLimit));
      if (!n.isRead) {
        // The ref moves ahead of the render (here and below): the server's count follows at once and is
        // compared with ours; a stale ours would read the whole list again for nothing.
        unreadRef.current = (unreadRef.current ?? 0) + 1;
        setUnread(unreadRef.current);
      }
      toasts.add(n);
    },
    unread({ unreadCount }) {
      // A count other than ours: another tab or device read something. Take the server's, read the list again.
      if (unreadCount !== unreadRef.current) {
        unreadRef.current = unreadCount;
        setUnread(unreadCount);
        reread();
      }
    },
    reconnected: reread,
  });

  const markOne = useMutation({
    mutationFn: markNotificationRead,
    onSuccess: (_answer, id) => {
      const wasUnread = list.some((n) => n.id === id && !n.isRead);
      setReadIds((prev) => new Set(prev).add(id));
      if (wasUnread) {
        unreadRef.current = Math.max(0, (unreadRef.current ?? 1) - 1);
        setUnread(unreadRef.current);
      }
    },
    onError: () => toast({ title: NOTIFICATION_FAILURES.markOne, severity: 'error' }),
  });
  const markAll = useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      setReadIds((prev) => new Set([...prev, ...known.current]));
      unreadRef.current = 0;
      setUnread(0);
    },
    onError: () => toast({ title: NOTIFICATION_FAILURES.markAll, severity: 'error' }),
  });

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return {
    list,
    unreadCount: unread ?? (fromCache ? list.filter((n) => !n.isRead).length : 0),
    loading: query.isPending,
    fromCache,
    hasMore: !!hasNextPage && !fromCache,
    loadingMore: isFetchingNextPage,
    loadMore,
    markRead: (id) => markOne.mutate(id),
    markAllRead: () => markAll.mutate(),
  };
}

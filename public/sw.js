/*
 * The app's only service worker (spec §2: "/sw.js"). It shows each Web Push (src/features/push: the
 * server sends { id, title, body, url, type }, encrypted; the browser hands it here decrypted) and,
 * when the notification is clicked, focuses a window of the app already open or opens one at `url`.
 */
/* eslint-env serviceworker */

// A new version of this file takes over at once: it holds no cache whose versions could disagree.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    // Not our JSON: show its text rather than nothing (a browser may punish a push that shows nothing).
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Notification';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.id === 'string' ? data.id : undefined,
      icon: '/logo.jpg',
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Only a page of this app is opened, whatever the push said.
  let target = new URL('/', self.location.origin);
  try {
    const wanted = new URL(event.notification.data?.url ?? '/', self.location.origin);
    if (wanted.origin === self.location.origin) target = wanted;
  } catch {
    // A malformed url: the app's root.
  }
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) return open.focus();
      return self.clients.openWindow(target.href);
    })(),
  );
});

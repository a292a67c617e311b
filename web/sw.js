// Hotseat's service worker: the whole site is kept in one cache named after the build,
// so the app starts without a network after the first visit. A new build changes this
// file (the name below), the browser installs it in the background, and the next start
// serves the new version; the old cache is then deleted. Saved games live in the page's
// localStorage, not here, so an update never touches them.
const CACHE = "hotseat-@BUILD@";
const FILES = [@FILES@];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((n) => n.startsWith("hotseat-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

// Cache first: the files of one build never change (a new build is a new cache). The
// address's query (?kiosk) does not name another file.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((hit) => hit || fetch(request))
  );
});

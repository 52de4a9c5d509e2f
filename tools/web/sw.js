// The site's service worker: it keeps the page, the port, the firmware and every Expert
// table the page fetched, so a second visit plays with the network off. build_site.py
// fills VERSION and FILES; a new version keeps its files in a new cache and drops the old.
const VERSION = "dev";
const FILES = [];
const CACHE = "picoyacht-" + VERSION;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("picoyacht-") && k !== CACHE)
      .map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The site's own files from the cache, else from the network, kept for next time.
self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  e.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(req, { ignoreSearch: true });
    if (kept) return kept;
    const res = await fetch(req);
    if (res.status === 200) e.waitUntil(cache.put(req, res.clone()));
    return res;
  }));
});

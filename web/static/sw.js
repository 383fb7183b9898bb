// Service worker: offline support. The post_build hook (stamp-sw.sh) fills in a hash of
// this build's files (the cache name) and their list.
const CACHE = "nginx-gen-__BUILD__";
const FILES = ["./", "__FILES__"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("nginx-gen-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== location.origin) return;
  if (req.mode === "navigate") {
    // The page itself: network first (new builds show at once), the cache when offline.
    event.respondWith(fetch(req).catch(() => caches.match("./", { cacheName: CACHE })));
    return;
  }
  // Hashed assets never change: cache first. A language catalogue (i18n/) is fetched
  // the first time it is chosen and kept, so the language works offline from then on.
  event.respondWith(
    caches.match(req, { cacheName: CACHE }).then((hit) => {
      if (hit) return hit;
      return fetch(req).then((res) => {
        if (res.ok && new URL(req.url).pathname.includes("/i18n/")) {
          const copy = res.clone();
          return caches.open(CACHE).then((c) => c.put(req, copy)).then(() => res);
        }
        return res;
      });
    }),
  );
});

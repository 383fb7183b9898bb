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
  // Hashed assets never change: cache first.
  event.respondWith(caches.match(req, { cacheName: CACHE }).then((hit) => hit || fetch(req)));
});

// The service worker: keeps every file of the page, the engine included, so the page
// loads offline once it has loaded. A new VERSION makes a fresh cache and drops the old
// one: scripts/web.sh writes the hash of the site's files into it at every build.

const VERSION = "fivefold-1";
const FILES = [
  "./", "index.html", "style.css", "app.js", "board.js", "graph.js", "tree.js", "engine.js",
  "worker.js", "helper.js", "db.js", "notation.js", "protocol.js", "settings.js", "manifest.webmanifest",
  "icon.svg", "fivefold.wasm", "fivefold-simd.wasm", "fivefold-threads.wasm",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// Cache first (the files change only with VERSION); anything not kept goes to the network.
self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  const url = new URL(event.request.url);
  if (url.origin !== location.origin) return;
  event.respondWith(
    caches.match(event.request, { ignoreSearch: true }).then((hit) => hit ?? fetch(event.request)),
  );
});

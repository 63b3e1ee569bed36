// The service worker: keeps every file of the page, and the engine build the browser
// runs, so the page loads offline once it has loaded. The page files are kept when it
// installs; the engine (three builds of 3.3 MB, of which a browser runs one) when it is
// first fetched through it (app.js fetches the one it loaded once this worker controls
// the page). A new VERSION makes a fresh cache and drops the old one: scripts/web.sh
// writes the hash of the site's files into it at every build.

const VERSION = "fivefold-1";
const FILES = [
  "./", "index.html", "style.css", "app.js", "board.js", "graph.js", "tree.js", "engine.js",
  "worker.js", "helper.js", "db.js", "notation.js", "protocol.js", "settings.js", "manifest.webmanifest",
  "icon.svg",
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

// Cache first (the files change only with VERSION); a file not kept yet is fetched and
// kept.
self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  const url = new URL(event.request.url);
  if (url.origin !== location.origin) return;
  event.respondWith(
    caches.match(event.request, { ignoreSearch: true }).then(
      (hit) =>
        hit ??
        fetch(event.request).then((response) => {
          if (response.ok && response.type === "basic") {
            const copy = response.clone();
            event.waitUntil(caches.open(VERSION).then((cache) => cache.put(event.request, copy)));
          }
          return response;
        }),
    ),
  );
});

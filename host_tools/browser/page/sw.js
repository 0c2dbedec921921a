// The site's own service worker. (1) Cross-origin isolation: every response it serves
// carries COOP/COEP, which SharedArrayBuffer (the worker's sleep and buttons) needs and
// which static hosts often cannot send. (2) Offline: the site's files (site.json lists
// them) are cached under the build's version, then served from the cache.
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = "pico-yahtzee-" + VERSION;

function isolated(response) {
  if (!response || response.status === 0 || response.type === "opaque") return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil((async () => {
    const info = await (await fetch("site.json", { cache: "no-store" })).json();
    const cache = await caches.open(CACHE);
    await cache.addAll(info.files);
  })().catch(() => undefined)); // offline at install: files are cached as they are fetched
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const url = new URL(request.url);
    const key = url.pathname.endsWith("/") ? url.href : request;
    let response = null;
    if (url.pathname.endsWith("/site.json")) {
      // The build's version: from the network when there is one (a new build, a new cache).
      response = await fetch(request).catch(() => null);
      if (response && response.ok) return isolated(response);
    }
    response = await cache.match(key, { ignoreSearch: true });
    if (!response) {
      response = await fetch(request);
      if (response.ok) cache.put(key, response.clone());
    }
    return isolated(response);
  })());
});

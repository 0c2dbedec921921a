// The site's own service worker. (1) Cross-origin isolation: every response it serves
// carries COOP/COEP, which SharedArrayBuffer (the worker's sleep and buttons) needs and
// which static hosts often cannot send. (2) Offline, one build at a time: a build's files
// (site.json lists them with their SHA-256) are cached whole under the build's version,
// or not at all, and a request naming a version ("tree.bin?v=...") is answered from that
// build alone, so a page never mixes two builds. (3) Two copies of the site on one origin
// (two folders of a user's GitHub Pages) keep apart: caches are named by the scope.
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const SCOPE = new URL(self.registration.scope).pathname;
const PREFIX = "pico-yahtzee " + SCOPE + " ";
const CACHE = PREFIX + VERSION;
const KEEP = "keep"; // in a build's cache: the version it replaced, kept for tabs still on it

function isolated(response) {
  if (!response || response.status === 0 || response.type === "opaque") return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A file of the build `info` describes, from the network, checked against its hash; null
// when the host now serves another build's file. Revalidated first (an unchanged file
// costs a 304), then fetched whole: a deploy may keep a file's date while its bytes change.
async function fetchChecked(info, name) {
  const want = info.hashes[name === "./" ? "index.html" : name];
  for (const cache of ["no-cache", "reload"]) {
    const response = await fetch(name, { cache });
    if (!response.ok) return null;
    const body = await response.arrayBuffer();
    if (!want || (await sha256(body)) === want) return new Response(body, { status: 200, headers: response.headers });
  }
  return null;
}

// The build `version` as the host serves it now: its site.json, or null (another build).
async function siteInfo(version) {
  const response = await fetch("site.json", { cache: "no-store" });
  const info = await response.json();
  return info.version === version ? info : null;
}

self.addEventListener("install", (event) => {
  self.skipWaiting();
  event.waitUntil((async () => {
    const info = await siteInfo(VERSION);
    if (!info) throw new Error("the host serves another build now"); // the page registers that one
    const files = {};
    for (const name of info.files) {
      const response = name === "site.json" ? new Response(JSON.stringify(info)) : await fetchChecked(info, name);
      if (!response) throw new Error("a new build was published while this one was cached: " + name);
      files[name] = response;
    }
    const cache = await caches.open(CACHE);
    for (const [name, response] of Object.entries(files)) await cache.put(name, response);
    const before = self.registration.active && new URL(self.registration.active.scriptURL).searchParams.get("v");
    await cache.put(KEEP, new Response(before || ""));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const keep = await (await caches.open(CACHE)).match(KEEP);
    const previous = keep ? PREFIX + (await keep.text()) : null;
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE && name !== previous) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// The build's own name for a request in scope: "./" for the page, else the path below the scope.
function fileName(url) {
  const rest = url.pathname.slice(SCOPE.length);
  return rest === "" || rest === "index.html" ? "./" : decodeURIComponent(rest);
}

async function answer(request) {
  const url = new URL(request.url);
  const name = fileName(url);
  if (url.searchParams.has("latest")) return fetch(request, { cache: "no-store" }); // the page asks what is published
  const version = url.searchParams.get("v") || VERSION;
  const cache = await caches.open(PREFIX + version);
  const cached = await cache.match(name);
  if (cached) return cached;
  // Not cached (the first visit, or a build whose cache is gone): from the network, but
  // only while the host still serves that build.
  const info = await siteInfo(version).catch(() => null);
  if (!info) return fetch(request).catch(() => new Response("offline", { status: 503 }));
  if (!info.files.includes(name)) return fetch(request);
  const fresh = name === "site.json" ? new Response(JSON.stringify(info)) : await fetchChecked(info, name);
  return fresh || new Response("a new build was published", { status: 409 });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || !url.pathname.startsWith(SCOPE)) return;
  event.respondWith(answer(request).then(isolated));
});

/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />
/// <reference types="@sveltejs/kit" />
/**
 * App-shell service worker: caches the built app, the static files and the page shell so the
 * dashboard opens offline (its data is in IndexedDB). The API (/v1/*) is never cached: its
 * answers are live and metered, and a stale stream would be wrong.
 */
import { build, files, version } from '$service-worker';

const sw = self as unknown as ServiceWorkerGlobalScope;
const CACHE = `shell-${version}`;
// The shell: the page is rendered on the client (ssr = false), so '/' is the same HTML for every wallet.
const SHELL = '/';
const ASSETS = [...build, ...files, SHELL];

sw.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(ASSETS))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  // Network only: the API.
  if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) return;

  if (req.mode === 'navigate') {
    // Pages: the network first (new deploys show at once), the cached shell when offline.
    event.respondWith(
      (async () => {
        try {
          const res = await fetch(req);
          if (res.ok && url.pathname === SHELL) (await caches.open(CACHE)).put(SHELL, res.clone());
          return res;
        } catch {
          const cached = await caches.match(SHELL);
          return cached ?? new Response('Offline', { status: 503 });
        }
      })(),
    );
    return;
  }

  // Built assets are immutable (hashed names): the cache first.
  event.respondWith(
    (async () => {
      const cached = await caches.match(req);
      if (cached) return cached;
      const res = await fetch(req);
      if (res.ok && (build as string[]).includes(url.pathname)) (await caches.open(CACHE)).put(req, res.clone());
      return res;
    })(),
  );
});

// The dashboard is local-first: everything it shows lives in the browser's IndexedDB, so there is
// nothing to render on the server. The server sends the app shell; the service worker caches it.
export const ssr = false;
export const prerender = false;

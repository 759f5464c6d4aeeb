import type { Handle, ServerInit } from '@sveltejs/kit';
import { loadConfig } from '$lib/server/config.js';
import { createServer, type Server } from '$lib/server/create-server.js';
import { defaultSourceFactory } from '$lib/server/sources.js';

let server: Promise<Server> | undefined;

function getServer(): Promise<Server> {
  server ??= createServer({ config: loadConfig(), sources: defaultSourceFactory });
  return server;
}

export const init: ServerInit = async () => {
  const s = await getServer();
  // adapter-node emits this on SIGINT/SIGTERM once requests have drained: stop loaders at a batch boundary, close the store.
  process.once('sveltekit:shutdown' as 'beforeExit', () => void s.close());
};

export const handle: Handle = async ({ event, resolve }) => {
  const path = event.url.pathname;
  if (path === '/v1' || path.startsWith('/v1/')) {
    const response = await (await getServer()).api.handle(event.request);
    if (response) return response;
  }
  return resolve(event);
};

import type { Handle, ServerInit } from '@sveltejs/kit';
import { loadConfig } from '$lib/server/config.js';
import { createServer, type Server } from '$lib/server/create-server.js';
import { defaultSourceFactory } from '$lib/server/sources.js';

let server: Server | undefined;

export const init: ServerInit = async () => {
  server = await createServer({ config: loadConfig(), sources: defaultSourceFactory });
  const s = server;
  // adapter-node emits this on SIGINT/SIGTERM once requests have drained: stop loaders at a batch boundary, close the store.
  process.once('sveltekit:shutdown' as 'beforeExit', () => void s.close());
};

export const handle: Handle = async ({ event, resolve }) => {
  event.locals.server = server!;
  return resolve(event);
};

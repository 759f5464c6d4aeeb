import type { Server } from '$lib/server/create-server.js';

declare global {
  namespace App {
    interface Locals {
      /** The one composition root (store, chains, loaders, API), built once in the hooks' init. */
      server: Server;
    }
  }
}
export {};

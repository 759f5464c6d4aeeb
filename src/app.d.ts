import type { IncomingMessage } from 'node:http';
import type { Server } from '$lib/server/create-server.js';

declare global {
  namespace App {
    interface Locals {
      /** The one composition root (store, chains, loaders, API), built once in the hooks' init. */
      server: Server;
    }
    interface Platform {
      /** adapter-node: the request as Node received it. */
      req?: IncomingMessage;
      /**
       * EMBEDDED=1 (the tests and benchmarks run the built route files in-process): the composed
       * server this request is for, in place of the one the app would start itself.
       */
      server?: Server;
    }
  }
}
export {};

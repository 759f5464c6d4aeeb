/**
 * The built app's own request handling, run in-process: SvelteKit's `Server` from the build output
 * (`.svelte-kit/output/server`, what adapter-node bundles into `build/`), its hooks and the route
 * files under src/routes, served over node:http the way adapter-node serves them (`getRequest` and
 * `setResponse` from @sveltejs/kit/node, the clientError answer of the built server). Each test
 * composes its own server (store, scripted or replayed chain sources) and every request carries it
 * as `platform.server`; the app itself starts none (EMBEDDED=1).
 *
 * The build output must be current: app-build.ts rebuilds it when a file under src/ is newer, and
 * gives the process a copy of its own.
 */
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Server as KitServer, SSRManifest } from '@sveltejs/kit';
import { getRequest, setResponse } from '@sveltejs/kit/node';
import type { Server } from '../../src/lib/server/create-server.js';
import { answerClientErrors } from '../../src/lib/server/http/client-errors.js';
import { ensureAppBuild } from './app-build.js';

let kit: Promise<KitServer> | undefined;

/** The one SvelteKit server of this process (its hooks' init runs once per process, as in the app). */
function kitServer(): Promise<KitServer> {
  return (kit ??= (async () => {
    const dir = await ensureAppBuild();
    const { Server: Kit } = (await import(pathToFileURL(`${dir}/index.js`).href)) as { Server: new (m: SSRManifest) => KitServer };
    const { manifest } = (await import(pathToFileURL(`${dir}/manifest.js`).href)) as { manifest: SSRManifest };
    const app = new Kit(manifest);
    await app.init({ env: { EMBEDDED: '1' } });
    return app;
  })());
}

/** Answers a request through the app's hooks and route files, for `server`. */
export async function appRespond(server: Server, request: Request, req?: IncomingMessage): Promise<Response> {
  const app = await kitServer();
  return app.respond(request, { platform: { server, req }, getClientAddress: () => req?.socket.remoteAddress ?? '127.0.0.1' });
}

export interface AppHandle {
  url: string;
  close(): Promise<void>;
}

export interface ServeAppOptions {
  port?: number;
  host?: string;
  /** Answers what the app does not (a test's own control routes); null passes the request on. */
  extra?: (request: Request) => Response | Promise<Response> | null;
}

/** Serves the app for `server` on a port of its own. */
export async function serveApp(server: Server, { port = 0, host = '127.0.0.1', extra }: ServeAppOptions = {}): Promise<AppHandle> {
  await kitServer();
  const http = createHttpServer(async (req, res) => {
    try {
      const request = await getRequest({ request: req, base: `http://${req.headers.host ?? host}` });
      const response = (await extra?.(request)) ?? (await appRespond(server, request, req));
      await setResponse(res, response);
    } catch (e) {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String((e as Error)?.message ?? e));
      } else res.destroy();
    }
  });
  answerClientErrors(http);
  // As adapter-node's KEEP_ALIVE_TIMEOUT default (5 s).
  http.keepAliveTimeout = 5_000;
  await new Promise<void>((r) => http.listen(port, host, r));
  const { port: p } = http.address() as AddressInfo;
  return {
    url: `http://${host}:${p}`,
    close: () =>
      new Promise<void>((r) => {
        http.closeAllConnections();
        http.close(() => r());
      }),
  };
}

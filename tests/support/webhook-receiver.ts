import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver for tests: records every POST (headers and raw body) and answers as the test
 * says (`respond`: a status, or `hang` to never answer), so a receiver that is down, slow or
 * redirecting can be played.
 */
export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: Received[];
  respond: (r: Received) => number | 'hang';
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const hanging = new Set<IncomingMessage>();
  const rec: WebhookReceiver = {
    url: '',
    received: [],
    respond: () => 204,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const r: Received = { headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      rec.received.push(r);
      const how = rec.respond(r);
      if (how === 'hang') {
        hanging.add(req);
        return;
      }
      res.writeHead(how, how >= 300 && how < 400 ? { location: `${rec.url}/elsewhere` } : {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rec.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = rec.close;
  rec.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return rec;
}

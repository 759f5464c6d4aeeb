import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of a JSON-RPC node that can be told to misbehave as a price RPC does:
 * `down` drops each request, `slow` holds it (600 ms), `garbage-json` answers an HTML page,
 * `garbage-result` answers well-formed JSON-RPC whose results are not what the calls return.
 */
export type FaultMode = 'pass' | 'down' | 'slow' | 'garbage-json' | 'garbage-result';

export interface FaultProxy {
  url: string;
  mode: FaultMode;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: '', mode: 'pass', close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (b: Buffer) => chunks.push(b));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const mode = proxy.mode;
      if (mode === 'down') return req.socket.destroy();
      if (mode === 'garbage-json') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>');
      if (mode === 'slow') await new Promise((r) => setTimeout(r, 600));
      const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      let text = await upstream.text();
      if (mode === 'garbage-result') {
        const parsed = JSON.parse(text);
        const mangle = (r: { result?: unknown }) => ({ ...r, result: '0x1234' });
        text = JSON.stringify(Array.isArray(parsed) ? parsed.map(mangle) : mangle(parsed));
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return proxy;
}

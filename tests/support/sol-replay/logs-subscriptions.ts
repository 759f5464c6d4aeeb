import { createHash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The replay's RPC WebSocket (issue 24): `logsSubscribe` with `mentions` of one address, and
 * `logsUnsubscribe`, as Solana's pubsub answers them; a notification goes out when a transaction
 * naming the address is added. Written over the HTTP server's `upgrade` with the RFC 6455 framing
 * a client's text messages need (masked client frames, up to 64-bit lengths, ping, close), so the
 * tests depend on no WebSocket package. `drop()` closes every connection; `refuse` turns new ones away.
 */
export interface LogsSubscriptions {
  /** Tells the subscribers of any of these addresses that a transaction named them. */
  notify(signature: string, slot: number, accounts: readonly string[]): void;
  drop(): void;
  refuse: boolean;
  readonly connections: number;
  readonly subscriptions: number;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, n]) : n < 65_536 ? Buffer.from([0x81, 126, n >> 8, n & 255]) : Buffer.concat([Buffer.from([0x81, 127]), u64(n)]);
  return Buffer.concat([head, payload]);
}
function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

export function attachLogsSubscriptions(server: Server): LogsSubscriptions {
  const sockets = new Set<Duplex>();
  /** subscription id → [socket, address] */
  const subs = new Map<number, { socket: Duplex; address: string }>();
  let nextSub = 1;
  const api: LogsSubscriptions = {
    refuse: false,
    notify(signature, slot, accounts) {
      const named = new Set(accounts);
      for (const [id, s] of subs) {
        if (!named.has(s.address)) continue;
        s.socket.write(
          frame(
            JSON.stringify({
              jsonrpc: '2.0',
              method: 'logsNotification',
              params: { result: { context: { slot }, value: { signature, err: null, logs: [] } }, subscription: id },
            }),
          ),
        );
      }
    },
    drop() {
      for (const s of sockets) s.destroy();
    },
    get connections() {
      return sockets.size;
    },
    get subscriptions() {
      return subs.size;
    },
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const key = req.headers['sec-websocket-key'];
    if (api.refuse || typeof key !== 'string') {
      socket.end('HTTP/1.1 503 Service Unavailable\r\n\r\n');
      return;
    }
    const accept = createHash('sha1')
      .update(key + GUID)
      .digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    sockets.add(socket);
    let buf = Buffer.alloc(0);
    const forget = () => {
      sockets.delete(socket);
      for (const [id, s] of subs) if (s.socket === socket) subs.delete(id);
    };
    socket.on('close', forget);
    socket.on('error', forget);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (buf.length < 2) return;
        const opcode = buf[0] & 0x0f;
        const masked = (buf[1] & 0x80) !== 0;
        let len = buf[1] & 0x7f;
        let at = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          at = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          len = Number(buf.readBigUInt64BE(2));
          at = 10;
        }
        const maskAt = at;
        if (masked) at += 4;
        if (buf.length < at + len) return;
        const payload = Buffer.from(buf.subarray(at, at + len));
        if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= buf[maskAt + (i % 4)];
        buf = buf.subarray(at + len);
        if (opcode === 0x8) {
          socket.end(Buffer.from([0x88, 0]));
          return;
        }
        if (opcode === 0x9) socket.write(Buffer.concat([Buffer.from([0x8a, payload.length]), payload]));
        if (opcode === 0x1) answer(socket, payload.toString('utf8'));
      }
    });
  });

  function answer(socket: Duplex, text: string): void {
    let m: { id?: unknown; method?: string; params?: unknown[] };
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    const reply = (result: unknown) => socket.write(frame(JSON.stringify({ jsonrpc: '2.0', id: m.id, result })));
    if (m.method === 'logsSubscribe') {
      const mentions = (m.params?.[0] as { mentions?: string[] } | undefined)?.mentions;
      if (!Array.isArray(mentions) || mentions.length !== 1) {
        socket.write(frame(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: 'Invalid Request: Only 1 address supported' } })));
        return;
      }
      const id = nextSub++;
      subs.set(id, { socket, address: mentions[0] });
      reply(id);
    } else if (m.method === 'logsUnsubscribe') {
      reply(subs.delete(Number(m.params?.[0])));
    } else socket.write(frame(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } })));
  }
  return api;
}

import { sleep } from '../core/wait.js';

/**
 * JSON-RPC subscriptions over a WebSocket, for the realtime stages (issue 24: Solana's
 * `logsSubscribe`, EVM's `eth_subscribe newHeads`): one connection at a time, opened again after a
 * drop (1 s after one that had opened; from 1 s doubling to 30 s while it cannot open), until the
 * signal aborts. What to subscribe and what a message means is the caller's: `open` is called with
 * each new connection and returns that connection's handlers, so nothing of a dropped connection's
 * subscriptions is kept.
 */
export interface WsSession {
  /** Sends a request; returns its id. */
  send(method: string, params: unknown[]): number;
  /** Whether this is a connection after a drop (what the drop hid may be looked for at once). */
  readonly reconnected: boolean;
}

export interface WsMessage {
  id?: number;
  result?: unknown;
  error?: unknown;
  method?: string;
  params?: { subscription?: number | string; result?: unknown };
}

export interface WsHandlers {
  /** A response (with `id`) or a notification (with `method`). */
  onMessage(m: WsMessage): void;
  /** Called every `tickMs` while the connection is open (a caller matching subscriptions to a changing list). */
  onTick?(): void;
}

export interface WsSubscriptionsOptions {
  url: string;
  /** The WebSocket class (tests); default the platform's (Node 22+ and browsers; Node 20 has none without a flag). */
  WebSocket: typeof WebSocket;
  signal: AbortSignal;
  open(session: WsSession): WsHandlers;
  tickMs?: number;
  /** Told when a connection opens (true) and ends (false). */
  onState?(open: boolean): void;
}

/** A WebSocket URL for an HTTP RPC URL: the same host and path, ws or wss (null for what is not http). */
export function wsUrlOf(rpcUrl: string): string | null {
  try {
    const u = new URL(rpcUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
    return u.toString();
  } catch {
    return null;
  }
}

/** Runs connections until the signal aborts. */
export async function runWsSubscriptions(o: WsSubscriptionsOptions): Promise<void> {
  let backoff = 1_000;
  let reconnected = false;
  while (!o.signal.aborted) {
    const opened = await connection(o, reconnected, () => {
      backoff = 1_000;
    });
    if (opened) reconnected = true;
    if (o.signal.aborted) return;
    await sleep(opened ? 1_000 : backoff, o.signal).catch(() => {});
    if (!opened) backoff = Math.min(backoff * 2, 30_000);
  }
}

/** One connection: ends when the socket does; resolves whether it opened. */
function connection(o: WsSubscriptionsOptions, reconnected: boolean, onOpen: () => void): Promise<boolean> {
  const WS = o.WebSocket;
  return new Promise((resolve) => {
    let opened = false;
    let nextId = 1;
    let handlers: WsHandlers | null = null;
    let ws: WebSocket;
    try {
      ws = new WS(o.url);
    } catch {
      // A URL the platform refuses (a fragment, say): a failed attempt, tried again with the backoff.
      return resolve(false);
    }
    let timer: ReturnType<typeof setInterval> | undefined;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      clearTimeout(handshake);
      o.signal.removeEventListener('abort', stop);
      if (opened) o.onState?.(false);
      resolve(opened);
    };
    // Not waited on: a socket refused during its handshake may never report its close (seen with
    // Node 22's WebSocket against an endpoint answering 503), and the stage must stop at once.
    const stop = () => {
      ws.close();
      finish();
    };
    o.signal.addEventListener('abort', stop, { once: true });
    // A handshake that neither opens nor fails within 10 s is given up, and tried again.
    const handshake = setTimeout(() => {
      if (!opened) stop();
    }, 10_000);
    ws.onopen = () => {
      opened = true;
      clearTimeout(handshake);
      onOpen();
      o.onState?.(true);
      const session: WsSession = {
        reconnected,
        send(method, params) {
          const id = nextId++;
          if (ws.readyState === WS.OPEN) ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
          return id;
        },
      };
      handlers = o.open(session);
      if (handlers.onTick) timer = setInterval(() => ws.readyState === WS.OPEN && handlers!.onTick!(), o.tickMs ?? 500);
    };
    ws.onmessage = (ev: MessageEvent) => {
      let m: WsMessage;
      try {
        m = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      handlers?.onMessage(m);
    };
    ws.onclose = finish;
    ws.onerror = () => {
      // onclose follows.
    };
  });
}

import { pollingRealtime, type RealtimeParameters } from '../../../core/chain-source.js';
import { sleep } from '../../../core/wait.js';

/**
 * The Solana realtime stage (issue 24): `logsSubscribe` with `mentions` of each followed wallet at
 * `confirmed` over the RPC's WebSocket, so a new transaction of the wallet wakes its walker within
 * a moment; resubscribing after a drop (from 1 s, doubling to 30 s), with every wallet looked at
 * once on reconnecting (what the drop may have hidden); and throughout, the safety poll: every
 * wallet every 10 s, which alone carries the stage where there is no WebSocket (Node 20 has none
 * without a flag; Node 22+ and browsers do) or the endpoint refuses it.
 */
export interface SolanaRealtimeOptions {
  /** ws:// or wss:// (RPC_WS_URL_SOL; by default the RPC URL with its scheme changed). */
  wsUrl: string | null;
  pollMs: number;
  /** The WebSocket class (tests); default the platform's. */
  WebSocket?: typeof WebSocket;
}

/** The WebSocket URL of an HTTP RPC URL: the same host and path, ws or wss. */
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

export async function solanaRealtime(o: SolanaRealtimeOptions, p: RealtimeParameters): Promise<void> {
  const poll = pollingRealtime(o.pollMs)(p);
  const WS = o.WebSocket ?? (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  if (!WS || !o.wsUrl) return poll;
  await Promise.all([poll, subscribeLoop(o.wsUrl, WS, p)]);
}

/** How often the subscriptions are matched to the wallets followed now. */
const RECONCILE_MS = 500;

async function subscribeLoop(url: string, WS: typeof WebSocket, p: RealtimeParameters): Promise<void> {
  let backoff = 1_000;
  let first = true;
  while (!p.signal.aborted) {
    const opened = await session(url, WS, p, () => {
      backoff = 1_000;
      // After a drop, what it hid is looked for at once rather than at the next poll.
      if (!first) {
        const all = p.wallets();
        if (all.length) p.onActivity(all);
      }
      first = false;
    });
    if (p.signal.aborted) return;
    await sleep(opened ? 1_000 : backoff, p.signal).catch(() => {});
    if (!opened) backoff = Math.min(backoff * 2, 30_000);
  }
}

/** One connection: subscribes the followed wallets, tells notices, ends when the socket does. Resolves whether it opened. */
function session(url: string, WS: typeof WebSocket, p: RealtimeParameters, onOpen: () => void): Promise<boolean> {
  return new Promise((resolve) => {
    let opened = false;
    let nextId = 1;
    /** Wallet → its subscription id (null while asked), request id → wallet, subscription id → wallet. */
    const byWallet = new Map<string, number | null>();
    const asked = new Map<number, string>();
    const bySub = new Map<number, string>();
    const ws = new WS(url);
    const send = (method: string, params: unknown[]) => {
      const id = nextId++;
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      return id;
    };
    const reconcile = () => {
      if (ws.readyState !== WS.OPEN) return;
      const now = new Set(p.wallets());
      for (const w of now) {
        if (byWallet.has(w)) continue;
        byWallet.set(w, null);
        asked.set(send('logsSubscribe', [{ mentions: [w] }, { commitment: 'confirmed' }]), w);
      }
      for (const [w, sub] of byWallet) {
        if (now.has(w)) continue;
        byWallet.delete(w);
        if (sub !== null) {
          bySub.delete(sub);
          send('logsUnsubscribe', [sub]);
        }
      }
    };
    const timer = setInterval(reconcile, RECONCILE_MS);
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      clearTimeout(handshake);
      p.signal.removeEventListener('abort', stop);
      resolve(opened);
    };
    // Not waited on: a socket refused during its handshake may never report its close (seen with
    // Node 22's WebSocket against an endpoint answering 503), and the stage must stop at once.
    const stop = () => {
      ws.close();
      finish();
    };
    p.signal.addEventListener('abort', stop, { once: true });
    // A handshake that neither opens nor fails within 10 s is given up, and tried again.
    const handshake = setTimeout(() => {
      if (!opened) stop();
    }, 10_000);
    ws.onopen = () => {
      opened = true;
      clearTimeout(handshake);
      onOpen();
      reconcile();
    };
    ws.onmessage = (ev: MessageEvent) => {
      let m: { id?: number; result?: unknown; method?: string; params?: { subscription?: number } };
      try {
        m = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (typeof m.id === 'number' && asked.has(m.id)) {
        const w = asked.get(m.id)!;
        asked.delete(m.id);
        if (typeof m.result === 'number' && byWallet.has(w)) {
          byWallet.set(w, m.result);
          bySub.set(m.result, w);
        } else byWallet.delete(w); // refused: asked again at the next reconcile
        return;
      }
      if (m.method === 'logsNotification' && typeof m.params?.subscription === 'number') {
        const w = bySub.get(m.params.subscription);
        if (w) p.onActivity([w]);
      }
    };
    ws.onclose = finish;
    ws.onerror = () => {
      // onclose follows.
    };
  });
}

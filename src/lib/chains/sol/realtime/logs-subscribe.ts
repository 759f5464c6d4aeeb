import { pollingRealtime, type RealtimeParameters } from '../../../core/chain-source.js';
import { runWsSubscriptions } from '../../../rpc/ws-subscriptions.js';

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

export async function solanaRealtime(o: SolanaRealtimeOptions, p: RealtimeParameters): Promise<void> {
  const poll = pollingRealtime(o.pollMs)(p);
  const WS = o.WebSocket ?? (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  if (!WS || !o.wsUrl) return poll;
  await Promise.all([poll, subscribeLoop(o.wsUrl, WS, p)]);
}

/** How often the subscriptions are matched to the wallets followed now. */
const RECONCILE_MS = 500;

function subscribeLoop(url: string, WS: typeof WebSocket, p: RealtimeParameters): Promise<void> {
  return runWsSubscriptions({
    url,
    WebSocket: WS,
    signal: p.signal,
    tickMs: RECONCILE_MS,
    open(session) {
      // After a drop, what it hid is looked for at once rather than at the next poll.
      if (session.reconnected) {
        const all = p.wallets();
        if (all.length) p.onActivity(all);
      }
      /** Wallet → its subscription id (null while asked), request id → wallet, subscription id → wallet. */
      const byWallet = new Map<string, number | null>();
      const asked = new Map<number, string>();
      const bySub = new Map<number, string>();
      const reconcile = () => {
        const now = new Set(p.wallets());
        for (const w of now) {
          if (byWallet.has(w)) continue;
          byWallet.set(w, null);
          asked.set(session.send('logsSubscribe', [{ mentions: [w] }, { commitment: 'confirmed' }]), w);
        }
        for (const [w, sub] of byWallet) {
          if (now.has(w)) continue;
          byWallet.delete(w);
          if (sub !== null) {
            bySub.delete(sub);
            session.send('logsUnsubscribe', [sub]);
          }
        }
      };
      reconcile();
      return {
        onTick: reconcile,
        onMessage(m) {
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
        },
      };
    },
  });
}

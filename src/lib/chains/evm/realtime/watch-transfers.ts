import type { RealtimeParameters } from '../../../core/chain-source.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { runWsSubscriptions } from '../../../rpc/ws-subscriptions.js';
import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { confirmedHead } from '../head.js';
import { hex } from '../quantity.js';
import type { EvmConfirmation } from '../registry.js';
import { ethGetLogsMany, rpcError } from '../rpc-methods.js';

export interface WatchTransfersOptions {
  rpc: RpcTransport;
  confirmation: EvmConfirmation;
  /** How often the confirmed head is asked for without a subscription (a block every 12 s on Ethereum, 2 s on Base). */
  pollMs: number;
  /** Largest block span one eth_getLogs covers (the provider's limit); a longer gap is read in steps. */
  maxRange: number;
  /** The node's WebSocket (RPC_WS_URL_<SLUG>; by default the RPC URL's): `eth_subscribe newHeads` wakes the stage at each head. Null: poll only. */
  wsUrl?: string | null;
  /** The WebSocket class (tests); default the platform's (Node 22+, browsers). */
  WebSocket?: typeof WebSocket;
  /** While heads come by subscription, the poll is only a safety net, this often (default 15,000 ms). */
  safetyPollMs?: number;
}

/**
 * The EVM realtime stage: reads the chain's confirmation point (the configured tag or depth, never
 * `latest`) and, for each new confirmed range, asks for the Transfer logs of every followed wallet
 * at once: two eth_getLogs in one batch, one with the wallets as senders (topic 1) and one as
 * receivers (topic 2), each an OR list. A trade moves a token to or from the wallet, so a wallet
 * with a trade in the range has a Transfer there; the cost grows with blocks, not wallets.
 *
 * When is the confirmation point read: at each new head where the node offers `eth_subscribe
 * newHeads` over its WebSocket (a head is only a wake-up: what is read is still the confirmed
 * block, so nothing told is ever retracted), with a poll every 15 s as a safety net; else by
 * polling every `pollMs`. On Ethereum that is one head request per 12 s block instead of six polls.
 */
export async function watchTransfers(o: WatchTransfersOptions, p: RealtimeParameters): Promise<void> {
  let wake: (() => void) | null = null;
  let subscribed = false;
  /** A head came while the stage was reading: read again without waiting. */
  let pending = false;
  const WS = o.WebSocket ?? (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  const readNow = () => {
    if (wake) wake();
    else pending = true;
  };
  // Only heads that come put the stage on the safety net (a subscription granted but silent does not);
  // a drop wakes it so the wait it is in is the poll's again.
  const heads =
    WS && o.wsUrl
      ? subscribeHeads(o.wsUrl, WS, p.signal, {
          head: () => ((subscribed = true), readNow()),
          granted: readNow,
          down: () => ((subscribed = false), wake?.()),
        }).catch(() => {})
      : null;
  let last: number | null = null;
  while (!p.signal.aborted) {
    try {
      const head = await confirmedHead(o.rpc, o.confirmation, p.signal);
      // The first head only sets the start: what came before is the history's (the walker's refresh).
      if (last === null || head < last) last = head;
      while (head > last && !p.signal.aborted) {
        const to = Math.min(head, last + o.maxRange);
        const wallets = p.wallets();
        if (wallets.length) {
          const hit = await walletsWithTransfers(o.rpc, wallets, last + 1, to, p.signal);
          if (hit.length) p.onActivity(hit);
        }
        last = to;
      }
    } catch {
      // A failed read is tried again at the next head or tick, from the same block: nothing is skipped.
      if (p.signal.aborted) break;
    }
    if (p.signal.aborted) break;
    if (pending) {
      pending = false;
      continue;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        p.signal.removeEventListener('abort', done);
        wake = null;
        resolve();
      };
      const t = setTimeout(done, subscribed ? (o.safetyPollMs ?? 15_000) : o.pollMs);
      p.signal.addEventListener('abort', done, { once: true });
      wake = done;
    });
  }
  await heads;
}

/**
 * `eth_subscribe newHeads` on each connection: `head` at each head, `granted` when the
 * subscription is granted (a head missed while reconnecting is looked for at once), `down` when the
 * connection drops (the stage polls at its own pace again).
 */
function subscribeHeads(url: string, WS: typeof WebSocket, signal: AbortSignal, on: { head(): void; granted(): void; down(): void }): Promise<void> {
  return runWsSubscriptions({
    url,
    WebSocket: WS,
    signal,
    onState: (open) => !open && on.down(),
    open(session) {
      const id = session.send('eth_subscribe', ['newHeads']);
      return {
        onMessage(m) {
          // Granted: a string id; refused: the stage goes on polling at its own pace.
          if (m.id === id) return void (typeof m.result === 'string' && on.granted());
          if (m.method === 'eth_subscription') on.head();
        },
      };
    },
  });
}

/** The wallets among `wallets` (lowercase) that sent or received a token in blocks from..to. */
export async function walletsWithTransfers(rpc: RpcTransport, wallets: readonly string[], from: number, to: number, signal?: AbortSignal): Promise<string[]> {
  const topics = wallets.map((w) => '0x' + w.slice(2).toLowerCase().padStart(64, '0'));
  const base = { fromBlock: hex(from), toBlock: hex(to) };
  const [sent, received] = await ethGetLogsMany(
    rpc,
    [
      { ...base, topics: [ERC20_TRANSFER_TOPIC, topics] },
      { ...base, topics: [ERC20_TRANSFER_TOPIC, null, topics] },
    ],
    signal,
  );
  const followed = new Set(wallets.map((w) => w.toLowerCase()));
  const hit = new Set<string>();
  for (const [outcome, index] of [
    [sent, 1],
    [received, 2],
  ] as const) {
    // A refusal throws: the range is asked again at the next tick, never skipped.
    if (!outcome.ok) throw rpcError('eth_getLogs', outcome.error);
    for (const log of outcome.result) {
      const who = log.topics[index] ? topicToAddress(log.topics[index]) : null;
      if (who && followed.has(who)) hit.add(who);
    }
  }
  return [...hit];
}

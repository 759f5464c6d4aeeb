import type { RealtimeParameters } from '../../../core/chain-source.js';
import { sleep } from '../../../core/wait.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { ERC20_TRANSFER_TOPIC, topicToAddress } from '../../shared/uniswap-v2-events.js';
import { confirmedHead } from '../head.js';
import { hex } from '../quantity.js';
import type { EvmConfirmation } from '../registry.js';
import { ethGetLogsMany, rpcError } from '../rpc-methods.js';

export interface WatchTransfersOptions {
  rpc: RpcTransport;
  confirmation: EvmConfirmation;
  /** How often the confirmed head is asked for (a block every 12 s on Ethereum, 2 s on Base). */
  pollMs: number;
  /** Largest block span one eth_getLogs covers (the provider's limit); a longer gap is read in steps. */
  maxRange: number;
}

/**
 * The EVM realtime stage: polls the chain's confirmation point (the configured tag or depth, never
 * `latest`) and, for each new confirmed range, asks for the Transfer logs of every followed wallet
 * at once: two eth_getLogs in one batch, one with the wallets as senders (topic 1) and one as
 * receivers (topic 2), each an OR list. A trade moves a token to or from the wallet, so a wallet
 * with a trade in the range has a Transfer there; the cost grows with blocks, not wallets.
 */
export async function watchTransfers(o: WatchTransfersOptions, p: RealtimeParameters): Promise<void> {
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
      // A failed poll is tried again at the next tick, from the same block: nothing is skipped.
      if (p.signal.aborted) return;
    }
    await sleep(o.pollMs, p.signal).catch(() => {});
  }
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

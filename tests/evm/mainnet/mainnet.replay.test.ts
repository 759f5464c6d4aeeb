import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPoolKeyCache, type PoolKeyCache } from '../../../src/lib/chains/evm/decode/pool-key.js';
import type { RpcReceipt } from '../../../src/lib/chains/evm/decode/rpc-types.js';
import type { EvmChainConfig } from '../../../src/lib/chains/evm/registry.js';
import { createEvmSource } from '../../../src/lib/chains/evm/source.js';
import { evmPosition } from '../../../src/lib/chains/evm/trade-position.js';
import { ERC20_TRANSFER_TOPIC } from '../../../src/lib/chains/shared/uniswap-v2-events.js';
import { createMemoryTokenCache, type TokenCache } from '../../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../../src/lib/core/trade.js';
import { createPoolFacts } from '../../support/evm-replay/pool-facts.js';
import { recoverV4PoolKeys } from '../../support/evm-replay/v4-keys.js';
import { startChainReplay, type ChainReplay } from './chain-replay.js';
import { diffReason, rowOfGolden, rowOfTrade, type TradeRow } from './compare.js';
import { chainFixtures, mainnetChains, poolFactsOf } from './fixtures.js';
import { GOLDENS } from './goldens.js';
import type { MainnetGolden } from './types.js';

/**
 * The EVM source over the real mainnet set (tests/fixtures/evm-mainnet/), through its own JSON-RPC
 * client against a replay of each chain over a real socket (chain-replay.ts: recorded receipts,
 * transactions and headers; contract calls answered from facts, never from the expected trades),
 * compared with the trades derived by hand in golden-*.ts:
 *
 * - each transaction: a walk of the transaction's block alone gives that wallet exactly the golden
 *   trades of the transaction, field by field and in order, and so does a re-decode of the
 *   transaction alone (`redecode`, at its block and index);
 * - each wallet: a whole walk (log discovery from the head down to block 0) gives exactly the
 *   golden trades of that wallet over the whole set, and nothing else, and lists no transaction as
 *   unexplained (every one is a golden trade or a known non-trade).
 *
 * The output ends with a report: how many entries pass, one line per failure, the RPC calls per
 * trade of the whole walks, the calls that reverted for want of a fact. `MAINNET_REPORT=<file>`
 * writes it to a file too. In the suite, or on its own (no database, no build):
 * npx vitest run --config tests/evm/mainnet/vitest.config.ts
 */

const CHAINS = mainnetChains();
const SLUGS = [...new Set(GOLDENS.map((g) => g.chain))];
/** One range from the head to block 0: a provider without a range cap, so discovery costs 2 eth_getLogs a walk. */
const WHOLE_RANGE = 1_000_000_000;

interface Outcome {
  chain: string;
  what: string;
  reason: string | null;
}
const outcomes: Outcome[] = [];

interface Budget {
  calls: number;
  httpRequests: number;
  byMethod: Record<string, number>;
  reverted: Record<string, number>;
  tradesFound: number;
  goldenTrades: number;
}
const budgets = new Map<string, Budget>();
const unknownV4 = new Map<string, string[]>();

function sourceOf(chain: EvmChainConfig, url: string, opts: { tokens: TokenCache; poolKeys?: PoolKeyCache }) {
  return createEvmSource({
    chain: { ...chain },
    rpcUrl: url,
    tokens: opts.tokens,
    poolKeys: opts.poolKeys,
    discovery: 'logs',
    initialRange: WHOLE_RANGE,
  });
}

async function walk(chain: EvmChainConfig, url: string, wallet: string, opts: { tokens: TokenCache; poolKeys?: PoolKeyCache; block?: number }) {
  const source = sourceOf(chain, url, opts);
  const window = opts.block !== undefined ? { before: String(opts.block + 1), until: String(opts.block - 1) } : {};
  const trades: SourceTrade[] = [];
  const unexplained: string[] = [];
  for await (const b of source.history({ wallet, ...window })) {
    trades.push(...b.trades);
    for (const u of b.unexplained ?? []) unexplained.push(u.signature);
  }
  return { trades, unexplained, stats: source.stats };
}

/** Trades of one transaction in leg order, as compared. */
const rowsOf = (trades: readonly SourceTrade[], hash: string): TradeRow[] =>
  trades
    .filter((t) => t.signature === hash)
    .sort((a, b) => a.leg - b.leg)
    .map(rowOfTrade);

const word = (t: string | undefined) => (t ? '0x' + t.slice(26).toLowerCase() : '');
/** Whether log discovery can find the transaction for the wallet: a 3-topic Transfer names it. */
const namesWallet = (r: RpcReceipt, wallet: string) =>
  r.logs.some(
    (l) => l.topics.length === 3 && l.topics[0].toLowerCase() === ERC20_TRANSFER_TOPIC && (word(l.topics[1]) === wallet || word(l.topics[2]) === wallet),
  );

const explain = (g: MainnetGolden) => `${g.chain} ${g.hash} wallet ${g.wallet}\nwhy: ${g.why}${g.ambiguous ? `\nambiguous: ${g.ambiguous}` : ''}`;

function report(): string {
  const lines: string[] = [];
  const count = (what: string, chain?: string) => {
    const all = outcomes.filter((o) => o.what.startsWith(what) && (!chain || o.chain === chain));
    return `${all.filter((o) => o.reason === null).length}/${all.length}`;
  };
  lines.push(`mainnet set: transactions ${count('tx')} pass, whole walks ${count('walk')} pass`);
  let calls = 0;
  let found = 0;
  let golden = 0;
  for (const slug of SLUGS) {
    const b = budgets.get(slug);
    const budget = b
      ? ` | whole walks: ${b.calls} calls, ${b.httpRequests} HTTP, ${b.tradesFound} trades found (${b.goldenTrades} golden): ` +
        `${(b.calls / Math.max(1, b.tradesFound)).toFixed(2)} calls per trade found; ` +
        Object.entries(b.byMethod)
          .sort((x, y) => y[1] - x[1])
          .map(([m, n]) => `${m} ${n}`)
          .join(', ')
      : '';
    lines.push(`${slug}: transactions ${count('tx', slug)}, walks ${count('walk', slug)}${budget}`);
    if (b) {
      calls += b.calls;
      found += b.tradesFound;
      golden += b.goldenTrades;
    }
  }
  lines.push(
    `RPC calls per trade over the whole walks: ${(calls / Math.max(1, found)).toFixed(2)} per trade found (${calls} calls, ${found} trades; ${(calls / Math.max(1, golden)).toFixed(2)} per golden trade, ${golden})`,
  );
  const reverted = new Map<string, number>();
  for (const b of budgets.values()) for (const [k, n] of Object.entries(b.reverted)) reverted.set(k.slice(43), (reverted.get(k.slice(43)) ?? 0) + n);
  if (reverted.size)
    lines.push(
      `eth_calls that reverted for want of a fact (whole walks, by selector): ${[...reverted]
        .sort((x, y) => y[1] - x[1])
        .map(([s, n]) => `${s} ${n}`)
        .join(', ')}`,
    );
  for (const [slug, ids] of unknownV4) if (ids.length) lines.push(`${slug}: V4 pools whose key no candidate reproduced: ${ids.join(', ')}`);
  for (const o of outcomes) if (o.reason !== null) lines.push(`FAIL ${o.chain} ${o.what}: ${o.reason}`);
  return lines.join('\n');
}

afterAll(() => {
  const text = report();
  console.log(text);
  if (process.env.MAINNET_REPORT) writeFileSync(process.env.MAINNET_REPORT, text + '\n');
});

describe('the mainnet set and its facts', () => {
  it('every golden entry is a transaction of the set, once per wallet', () => {
    const seen = new Set<string>();
    for (const g of GOLDENS) {
      const key = `${g.chain}:${g.hash}:${g.wallet}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      expect(
        chainFixtures(g.chain).some((f) => f.receipt.transactionHash === g.hash),
        key,
      ).toBe(true);
    }
  });

  it("the replay's factory() facts agree with every pool factory the golden files state", () => {
    const disagree: string[] = [];
    for (const slug of SLUGS) {
      const { deployments, named } = poolFactsOf(slug);
      const facts = createPoolFacts(
        deployments,
        chainFixtures(slug).map((f) => f.receipt),
        named,
      );
      for (const g of GOLDENS.filter((x) => x.chain === slug))
        for (const v of g.venues ?? []) {
          // Pools with a factory() of their own: V2/V3-shaped and Solidly pools (V4 pools and vaults are ids or singletons).
          if (!/^0x[0-9a-f]{40}$/.test(v.address) || !['v2', 'v3', 'solidly', 'other'].includes(v.kind)) continue;
          if (v.kind === 'other' && !v.factory) continue;
          const got = facts.factoryOf(v.address);
          if (got !== v.factory) disagree.push(`${slug} ${g.hash} pool ${v.address}: replay ${got ?? 'reverts'}, golden ${v.factory ?? 'no known factory'}`);
        }
    }
    expect(disagree).toEqual([]);
  });
});

describe('V4 pool keys', () => {
  it('the replay recovers the key of every V4 pool the set swaps in on a PoolManager with a PositionManager', () => {
    for (const slug of SLUGS) {
      const chain = CHAINS.find((c) => c.slug === slug)!;
      const positionManagers = new Map<string, string>();
      for (const d of chain.dexes) if (d.kind === 'v4' && d.positionManager) positionManagers.set(d.poolManager, d.positionManager);
      const { unknown } = recoverV4PoolKeys(
        chainFixtures(slug).map((f) => f.receipt),
        positionManagers,
      );
      expect(unknown, slug).toEqual([]);
    }
  });
});

for (const slug of SLUGS) {
  describe(slug, () => {
    const chain = CHAINS.find((c) => c.slug === slug)!;
    const goldens = GOLDENS.filter((g) => g.chain === slug);
    let replay: ChainReplay;
    beforeAll(async () => {
      replay = await startChainReplay(chain);
      unknownV4.set(slug, replay.unknownV4Pools);
    });
    afterAll(async () => {
      await replay?.node.close();
    });

    describe('each transaction', () => {
      for (const g of goldens) {
        it(`${g.hash} for ${g.wallet}`, async () => {
          const fixture = replay.fixtures.find((f) => f.receipt.transactionHash === g.hash)!;
          const outcome: Outcome = { chain: slug, what: `tx ${g.hash} wallet ${g.wallet}`, reason: null };
          outcomes.push(outcome);
          let got: TradeRow[];
          try {
            const { trades } = await walk(chain, replay.node.url, g.wallet, { tokens: createMemoryTokenCache(), block: Number(BigInt(fixture.block.number)) });
            got = rowsOf(trades, g.hash);
          } catch (e) {
            outcome.reason = `walk failed: ${(e as Error).message}`;
            throw e;
          }
          const want = g.trades.map(rowOfGolden);
          outcome.reason = diffReason(got, want);
          if (outcome.reason && !got.length && !namesWallet(fixture.receipt, g.wallet))
            outcome.reason += ' (no Transfer log names the wallet: log discovery cannot find it)';
          expect(got, explain(g)).toEqual(want);
          const position = evmPosition(Number(BigInt(fixture.block.number)), Number(BigInt(fixture.receipt.transactionIndex)));
          const { trades: again } = await sourceOf(chain, replay.node.url, { tokens: createMemoryTokenCache() }).redecode!({
            wallet: g.wallet,
            transactions: [{ signature: g.hash, position }],
          });
          expect(again.every((t) => t.position === position)).toBe(true);
          expect(rowsOf(again, g.hash), `re-decode: ${explain(g)}`).toEqual(want);
        });
      }
    });

    describe('a whole walk of each wallet', () => {
      const tokens = createMemoryTokenCache();
      const poolKeys = createMemoryPoolKeyCache();
      for (const wallet of [...new Set(goldens.map((g) => g.wallet))]) {
        const entries = goldens.filter((g) => g.wallet === wallet);
        it(wallet, async () => {
          const outcome: Outcome = { chain: slug, what: `walk ${wallet}`, reason: null };
          outcomes.push(outcome);
          replay.node.resetCounts();
          let trades: SourceTrade[];
          let unexplained: string[];
          try {
            // Caches shared across the chain's wallets, as a server keeps them in its store.
            const w = await walk(chain, replay.node.url, wallet, { tokens, poolKeys });
            trades = w.trades;
            unexplained = w.unexplained;
            const b = budgets.get(slug) ?? { calls: 0, httpRequests: 0, byMethod: {}, reverted: {}, tradesFound: 0, goldenTrades: 0 };
            b.calls += w.stats.calls;
            b.httpRequests += w.stats.httpRequests;
            for (const [m, n] of Object.entries(replay.node.seen)) b.byMethod[m] = (b.byMethod[m] ?? 0) + n;
            for (const [m, n] of Object.entries(replay.node.reverted)) b.reverted[m] = (b.reverted[m] ?? 0) + n;
            b.tradesFound += trades.length;
            b.goldenTrades += entries.reduce((s, g) => s + g.trades.length, 0);
            budgets.set(slug, b);
          } catch (e) {
            outcome.reason = `walk failed: ${(e as Error).message}`;
            throw e;
          }
          const got: Record<string, TradeRow[]> = {};
          const want: Record<string, TradeRow[]> = {};
          const reasons: string[] = [];
          const failing: MainnetGolden[] = [];
          for (const g of entries) {
            const rows = rowsOf(trades, g.hash);
            const r = diffReason(rows, g.trades.map(rowOfGolden));
            if (r) {
              reasons.push(`${g.hash.slice(0, 12)}: ${r}`);
              failing.push(g);
            }
            if (rows.length || g.trades.length) {
              got[g.hash] = rows;
              want[g.hash] = g.trades.map(rowOfGolden);
            }
          }
          for (const sig of new Set(trades.map((t) => t.signature))) {
            if (entries.some((g) => g.hash === sig)) continue;
            got[sig] = rowsOf(trades, sig);
            want[sig] = [];
            reasons.push(`${sig.slice(0, 12)} (no golden entry for this wallet): ${diffReason(got[sig], [])}`);
          }
          // Every transaction of the set is explained by its trades or a known non-trade (issue 20).
          if (unexplained.length) reasons.push(`unexplained: ${unexplained.join(', ')}`);
          outcome.reason = reasons.length ? reasons.join(' | ') : null;
          expect(got, failing.map(explain).join('\n\n') || `${slug} wallet ${wallet}: trades in transactions with no golden entry for it`).toEqual(want);
          expect(unexplained, `${slug} wallet ${wallet}: transactions listed as unexplained`).toEqual([]);
        });
      }
    });
  });
}

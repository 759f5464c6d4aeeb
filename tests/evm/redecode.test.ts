import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { evmPosition } from '../../src/lib/chains/evm/trade-position.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { HistoryError } from '../../src/lib/core/errors.js';
import { startChainReplay, type ChainReplay } from './mainnet/chain-replay.js';
import { chainFixtures, mainnetChains } from './mainnet/fixtures.js';
import { GOLDENS } from './mainnet/goldens.js';

/**
 * The EVM source's `redecode` at its boundary, on the replay of the real eth set (each golden
 * transaction's re-decode is checked against its golden in mainnet/mainnet.replay.test.ts): what
 * it refuses, what it does with several transactions at once, and a receipt the node lacks.
 */
const chain = mainnetChains().find((c) => c.slug === 'eth')!;
let replay: ChainReplay;
beforeAll(async () => {
  replay = await startChainReplay(chain);
});
afterAll(async () => {
  await replay?.node.close();
});

const source = () => createEvmSource({ chain: { ...chain }, rpcUrl: replay.node.url, tokens: createMemoryTokenCache(), discovery: 'logs' });
const placeOf = (hash: string) => {
  const f = chainFixtures('eth').find((x) => x.receipt.transactionHash === hash)!;
  return evmPosition(Number(BigInt(f.block.number)), Number(BigInt(f.receipt.transactionIndex)));
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as HistoryError,
  );

describe('EVM redecode', () => {
  it('several transactions of one wallet in one call: every golden trade, newest position first, legs in order', async () => {
    // The wallet of the set with the most trading transactions on eth.
    const byWallet = new Map<string, typeof GOLDENS>();
    for (const g of GOLDENS.filter((x) => x.chain === 'eth' && x.trades.length)) byWallet.set(g.wallet, [...(byWallet.get(g.wallet) ?? []), g]);
    const [wallet, entries] = [...byWallet].sort((a, b) => b[1].length - a[1].length)[0];
    expect(entries.length).toBeGreaterThan(1);
    const { trades, unexplained } = await source().redecode!({ wallet, transactions: entries.map((g) => ({ signature: g.hash, position: placeOf(g.hash) })) });
    expect(unexplained).toEqual([]);
    expect(trades.length).toBe(entries.reduce((n, g) => n + g.trades.length, 0));
    for (let i = 1; i < trades.length; i++) {
      const [a, b] = [trades[i - 1], trades[i]];
      expect(a.position > b.position || (a.position === b.position && a.leg < b.leg)).toBe(true);
    }
    for (const g of entries) expect(trades.filter((t) => t.signature === g.hash).every((t) => t.position === placeOf(g.hash))).toBe(true);
  });

  it('nothing asked, nothing fetched', async () => {
    replay.node.resetCounts();
    expect(await source().redecode!({ wallet: GOLDENS[0].wallet, transactions: [] })).toEqual({ trades: [], unexplained: [] });
    expect(Object.values(replay.node.seen).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('refuses a wallet, a hash or a position that is not EVM, and one transaction at two positions', async () => {
    const g = GOLDENS.find((x) => x.chain === 'eth')!;
    const at = placeOf(g.hash);
    const cases = [
      { wallet: 'not-an-address', transactions: [{ signature: g.hash, position: at }], code: 'invalid_address' },
      { wallet: g.wallet, transactions: [{ signature: '0x1234', position: at }], code: 'invalid_position' },
      { wallet: g.wallet, transactions: [{ signature: g.hash, position: '123' }], code: 'invalid_position' },
      {
        wallet: g.wallet,
        transactions: [
          { signature: g.hash, position: at },
          { signature: g.hash, position: evmPosition(1, 2) },
        ],
        code: 'invalid_position',
      },
    ];
    for (const { code, ...p } of cases) expect((await failure(source().redecode!(p)))?.code, JSON.stringify(p)).toBe(code);
  });

  it('a receipt the node does not return fails the whole call, retryable (what is returned replaces the stored rows)', async () => {
    const g = GOLDENS.find((x) => x.chain === 'eth' && x.trades.length)!;
    const lost = '0x' + 'ab'.repeat(32);
    const e = await failure(
      source().redecode!({
        wallet: g.wallet,
        transactions: [
          { signature: g.hash, position: placeOf(g.hash) },
          { signature: lost, position: evmPosition(1, 0) },
        ],
      }),
    );
    expect(e).toBeInstanceOf(HistoryError);
    expect(e?.retryable).toBe(true);
    expect(e?.message).toContain(lost);
  });
});

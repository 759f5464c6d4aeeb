import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradeText, type Trade } from '../../src/lib/core/trade.js';
import { computePnl } from '../../src/lib/pnl/pnl-engine.js';
import { startAnvil, type AnvilNode } from '../support/anvil/anvil.js';
import { deployFeed } from '../support/anvil/chainlink/deploy-feed.js';
import { buildReplayWorld, startSolanaReplayServer, type ReplayServer } from '../support/sol-replay/index.js';
import { buildTronReplayWorld, startTronReplayServer, type TronReplayServer } from '../support/tron-replay/index.js';
import { startTestServer, streamAll, type TestServer } from '../support/test-server.js';
import { mul6 } from '../support/usd-check.js';
import { startChainReplay, type ChainReplay } from '../evm/mainnet/chain-replay.js';

/**
 * include=usd on the built server (issue 22), with the Solana, EVM and Tron replays for history
 * and Chainlink-shaped feeds on anvil for prices (served as if on bsc, PRICE_FEED_<COIN>), one per
 * coin, each with rounds at times chosen from the wallet's trades. Expected figures come from the
 * rule of decisions.md applied here to the pushed series (latest round at or before the trade;
 * amountSol × price rounded half-even to 6 decimals; the stablecoin legs of token-to-token trades),
 * and for the EVM wallets from the hand-derived golden trades with the products worked out by hand.
 */
/** Ten years: every pushed round counts however far from it a trade is (the heartbeat rule has its own tests). */
const HEARTBEAT = 315_360_000;
const E8 = 100_000_000n;

interface Round {
  time: number;
  /** 8 decimals. */
  answer: bigint;
}

const secondsOf = (iso: string) => Date.parse(iso) / 1000;
const e8 = (n: bigint) => {
  const s = n.toString().padStart(9, '0');
  const frac = s.slice(-8).replace(/0+$/, '');
  return s.slice(0, -8) + (frac ? '.' + frac : '');
};
const priceAt = (series: Round[], t: number) => {
  const r = series.filter((x) => x.time <= t).at(-1);
  return r ? e8(r.answer) : null;
};

/** The stablecoins each chain's test knows by hand (issuers' addresses). */
const STABLE: Record<string, string[]> = {
  sol: ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'],
  tron: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8'],
};

/** The two USD fields each trade must carry, by decisions.md, from its own fields and its transaction's other legs. */
function expectedUsd(chain: string, trades: Trade[], series: Round[]): { nativeUsd: string | null; valueUsd: string | null }[] {
  const stable = (t: Trade) => t.amount !== null && STABLE[chain].includes(t.tokenMint);
  return trades.map((t) => {
    const nativeUsd = priceAt(series, secondsOf(t.blockTime));
    if (t.amountSol !== null) return { nativeUsd, valueUsd: nativeUsd === null ? null : mul6(t.amountSol, nativeUsd) };
    if (stable(t)) return { nativeUsd, valueUsd: mul6(t.amount!, '1') };
    const against = trades.filter((o) => o !== t && o.signature === t.signature && o.side !== t.side && stable(o));
    return { nativeUsd, valueUsd: against.length === 1 ? mul6(against[0].amount!, '1') : null };
  });
}

/** Splits a trade text with USD fields into its eight spec fields (parsed exactly) and the two figures as written. */
function split(text: string): { trade: Trade; usd: { nativeUsd: string | null; valueUsd: string | null } } {
  const m = /,"nativeUsd":(null|[0-9.]+),"valueUsd":(null|[0-9.]+)\}$/.exec(text);
  if (!m) throw new Error(`no USD fields at the end of ${text}`);
  const lit = (s: string) => (s === 'null' ? null : s);
  return { trade: parseTradeText(text.slice(0, m.index) + '}'), usd: { nativeUsd: lit(m[1]), valueUsd: lit(m[2]) } };
}

let anvil: AnvilNode;
let sol: ReplayServer;
let tron: TronReplayServer;
let eth: ChainReplay;
let srv: TestServer;
const series: Record<'SOL' | 'TRX' | 'ETH', Round[]> = { SOL: [], TRX: [], ETH: [] };
let solWallet: string;
let tronWallet: string;

/** Rounds at each distinct time but the oldest (whose trades come before the feed's first round), on the trade's second. */
function seriesOver(times: number[], base: bigint): Round[] {
  const distinct = [...new Set(times)].sort((a, b) => a - b);
  return distinct.slice(1).map((time, i) => ({ time, answer: base + BigInt(i) * 1_234_567n }));
}

beforeAll(async () => {
  const solWorld = await buildReplayWorld({ trades: 300, seed: 11 });
  const tronWorld = buildTronReplayWorld({ trades: 120, seed: 5 });
  solWallet = solWorld.wallet.wallet;
  tronWallet = tronWorld.synth.wallet;
  series.SOL = seriesOver(
    solWorld.wallet.transactions.flatMap((t) => (t.blockTime ? [t.blockTime] : [])),
    150n * E8,
  );
  series.TRX = seriesOver(
    tronWorld.synth.expected.map((t) => secondsOf(t.blockTime)),
    E8 / 8n,
  );
  // ETH by hand: one round before each golden trade below, at prices chosen for the sums.
  series.ETH = [
    { time: 1_591_043_988 - 600, answer: 234_567_890_000n }, // 2345.6789
    { time: 1_657_035_153 - 120, answer: 115_025_000_000n }, // 1150.25
    { time: 1_679_546_783 - 3600, answer: 179_012_345_678n }, // 1790.12345678
  ];
  [sol, tron, eth, anvil] = await Promise.all([
    startSolanaReplayServer({ transactions: solWorld.transactions, accounts: solWorld.accounts, latencyMs: 1 }),
    startTronReplayServer({ ...tronWorld, latencyMs: 1 }),
    startChainReplay((await import('../evm/mainnet/fixtures.js')).mainnetChains().find((c) => c.slug === 'eth')!),
    startAnvil(),
  ]);
  const env: Record<string, string> = {
    RPC_URL_SOL: sol.url,
    RPC_URL_TRON: tron.url,
    RPC_URL_ETH: eth.node.url,
    RPC_LOGS_RANGE_ETH: '1000000000',
    RPC_URL_BSC: anvil.url,
    // Every price is had here: the wait is the pricing's, however loaded the machine (not a race with the clock).
    PRICE_WAIT_MS: '60000',
  };
  for (const coin of ['SOL', 'TRX', 'ETH'] as const) {
    const { proxy } = await deployFeed(anvil.url, { description: `${coin} / USD`, rounds: series[coin] });
    env[`PRICE_FEED_${coin}`] = `bsc:${proxy}:${HEARTBEAT}`;
  }
  srv = await startTestServer({ sources: 'default', env });
}, 180_000);

afterAll(async () => {
  await srv?.close();
  await Promise.all([sol?.close(), tron?.close(), eth?.node.close(), anvil?.stop()]);
});

describe('include=usd on the built server', () => {
  it('Solana: every trade of the replayed wallet carries the SOL price in force at its time and its value', async () => {
    const { trades, finals } = await streamAll(srv, solWallet, 'include=usd');
    expect(finals.at(-1)).toMatchObject({ complete: true, pricesComplete: true });
    const got = trades.map(split);
    expect(got.length).toBe(finals.at(-1).tradeCount);
    expect(got.map((g) => g.usd)).toEqual(
      expectedUsd(
        'sol',
        got.map((g) => g.trade),
        series.SOL,
      ),
    );
    // The oldest trades came before the feed's first round: null; every other trade is priced.
    const oldest = Math.min(...got.map((g) => secondsOf(g.trade.blockTime)));
    for (const g of got) expect(g.usd.nativeUsd === null, g.trade.blockTime).toBe(secondsOf(g.trade.blockTime) === oldest);
  }, 120_000);

  it("the Solana wallet's PnL takes transactions oldest first with each one's legs in order", async () => {
    const { trades } = await streamAll(srv, solWallet, 'include=usd');
    const got = trades.map(split).map((g) => ({ ...g.trade, valueUsd: g.usd.valueUsd }));
    // Newest first, a transaction's legs together in leg order: turned by transaction.
    const txs: (typeof got)[] = [];
    for (const t of got) {
      if (txs.length && txs.at(-1)![0].signature === t.signature) txs.at(-1)!.push(t);
      else txs.push([t]);
    }
    const byTransaction = txs.reverse().flat();
    // Teeth: some transaction buys and then sells one token, so a plain reverse changes the figures.
    expect(txs.some((legs) => legs.some((a, i) => legs.some((b, j) => j > i && a.tokenMint === b.tokenMint && a.side === 'buy' && b.side === 'sell')))).toBe(
      true,
    );
    expect(computePnl([...got].reverse(), 'average').realized).not.toBe(computePnl(byTransaction, 'average').realized);
    for (const method of ['average', 'fifo'] as const) {
      const body = await (await srv.get(`/v1/wallets/${solWallet}/pnl?method=${method}`)).text();
      const want = computePnl(byTransaction, method);
      expect(body).toContain(`"realized":${want.realized},`);
      expect(body).toContain(`"realizedUsd":${want.realizedUsd},`);
    }
  }, 120_000);

  it('Tron: the same with the TRX feed, through pages of 7 that say pricesComplete', async () => {
    const got: ReturnType<typeof split>[] = [];
    let cursor = '';
    for (;;) {
      const res = await srv.get(`/v1/wallets/${tronWallet}/history?chain=tron&limit=7&include=usd${cursor}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      const page = JSON.parse(text.replace(/"(amountSol|amount|nativeUsd|valueUsd)":([0-9.]+)/g, '"$1":"$2"'));
      expect(typeof page.pricesComplete).toBe('boolean');
      for (const t of page.trades) {
        const { nativeUsd, valueUsd, ...trade } = t;
        got.push({ trade, usd: { nativeUsd, valueUsd } });
      }
      if (page.complete && !page.cursor) {
        expect(page.pricesComplete).toBe(true);
        break;
      }
      cursor = `&cursor=${encodeURIComponent(page.cursor)}`;
    }
    expect(got.length).toBeGreaterThan(50);
    expect(got.map((g) => g.usd)).toEqual(
      expectedUsd(
        'tron',
        got.map((g) => g.trade),
        series.TRX,
      ),
    );
  }, 120_000);

  it('EVM: the hand-derived golden trades get the hand-worked figures', async () => {
    const cases: [string, { tokenMint: string; nativeUsd: string; valueUsd: string }[]][] = [
      // Sold 45 USDC for 0.187603293406027635 ETH at 2345.6789: 440.0570869130281562364015 → 440.057087.
      [
        '0x6d379cb5ba04c09293b21bf314e7aba3ffeaaf5b',
        [{ tokenMint: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', nativeUsd: '2345.6789', valueUsd: '440.057087' }],
      ],
      // 710.921537 USDT for CRV, no native leg: both legs are worth the USDT.
      [
        '0x4df4ab179e3fdac1930cd0a610d6ba6d5808e8ff',
        [
          { tokenMint: '0xD533a949740bb3306d119CC777fa900bA034cd52', nativeUsd: '1150.25', valueUsd: '710.921537' },
          { tokenMint: '0xdAC17F958D2ee523a2206206994597C13D831ec7', nativeUsd: '1150.25', valueUsd: '710.921537' },
        ],
      ],
      // 500,000 USDC for 498,538.169982 USDT: each stablecoin leg is worth its own amount.
      [
        '0xa8d7fb04877c3fbf175de76fa3d2fa66c770537f',
        [
          { tokenMint: '0xdAC17F958D2ee523a2206206994597C13D831ec7', nativeUsd: '1790.12345678', valueUsd: '498538.169982' },
          { tokenMint: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', nativeUsd: '1790.12345678', valueUsd: '500000' },
        ],
      ],
    ];
    for (const [wallet, want] of cases) {
      const { trades, finals } = await streamAll(srv, wallet, 'chain=eth&include=usd');
      expect(finals.at(-1), wallet).toMatchObject({ complete: true, pricesComplete: true });
      const got = trades.map(split).map((g) => ({ tokenMint: g.trade.tokenMint, ...g.usd }));
      expect(
        got.sort((a, b) => a.tokenMint.localeCompare(b.tokenMint)),
        wallet,
      ).toEqual(want.sort((a, b) => a.tokenMint.localeCompare(b.tokenMint)));
    }
  }, 120_000);

  it('without include a trade keeps exactly its eight fields; an unknown include is refused before anything is read', async () => {
    const res = await srv.get(`/v1/wallets/${tronWallet}/history?chain=tron&limit=3`);
    const page = await res.json();
    expect(page.pricesComplete).toBeUndefined();
    for (const t of page.trades) expect(Object.keys(t)).toEqual(['signature', 'side', 'token', 'tokenMint', 'amountSol', 'amount', 'dex', 'blockTime']);
    for (const q of ['include=eur', 'include=usd,eur', 'include=', 'include=USD']) {
      const bad = await srv.get(`/v1/wallets/${tronWallet}/history?chain=tron&${q}`);
      expect(bad.status, q).toBe(400);
      expect((await bad.json()).code, q).toBe('invalid_parameter');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { evmActivity, type EvmActivityOptions } from '../../src/lib/chains/evm/decode/activity.js';
import { decodeReceipt, type PoolKeys } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { V4_SWAP_TOPIC } from '../../src/lib/chains/evm/decode/v4.js';
import { internalTransfers } from '../../src/lib/chains/evm/enrich/trace-native.js';
import type { EvmChainConfig } from '../../src/lib/chains/evm/registry.js';
import { ERC20_TRANSFER_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { isUnexplained, type TransactionActivity } from '../../src/lib/core/activity.js';
import { callFrameOf } from '../support/evm-replay/internal-trace.js';
import { searchPoolKey } from '../support/evm-replay/v4-keys.js';
import { chainFixtures, mainnetChains, type MainnetFixture } from './mainnet/fixtures.js';
import { GOLDENS } from './mainnet/goldens.js';

/**
 * evmActivity (decode/activity.ts) over the real mainnet set (tests/fixtures/evm-mainnet/): each
 * expected change is read by hand from the fixture's logs (log indexes and raw amounts in the
 * comments), the transaction's value and the explorer's internal-transaction rows, never from
 * the function's output. "With a trace" hands it what a call trace gives the decoder (the top
 * call's `to` and value, the internal transfers: trace-native.ts over the replay's call frame of
 * the recorded rows); "logs alone" hands it nothing but the receipt.
 */

const CHAINS = new Map(mainnetChains().map((c) => [c.slug, c]));
const chainOf = (slug: string): EvmChainConfig => CHAINS.get(slug)!;

function fixture(chain: string, hash: string): MainnetFixture {
  const f = chainFixtures(chain).find((x) => x.receipt.transactionHash.toLowerCase() === hash);
  if (!f) throw new Error(`no fixture ${chain} ${hash}`);
  return f;
}

/** What the source hands the decoder for a traced transaction; without recorded rows, only the transaction's value. */
function traced(f: MainnetFixture): EvmActivityOptions {
  const transaction = { to: f.transaction.to?.toLowerCase() ?? null, value: BigInt(f.transaction.value) };
  const frame = callFrameOf(f.transaction, f.internalTransactions, (f.receipt as { contractAddress?: string | null }).contractAddress);
  return frame ? { transaction, internal: internalTransfers(frame) } : { transaction };
}

const NATIVE_ADDRESS = '0x0000000000000000000000000000000000000000';

/** V4 pool keys recovered from the receipt's own facts (as the replay answers PositionManager.poolKeys). */
function poolKeysOf(f: MainnetFixture): PoolKeys {
  const r = f.receipt;
  const keys = new Map<string, ReturnType<typeof searchPoolKey> & object>();
  const swaps = r.logs.filter((l) => l.topics.length === 3 && l.topics[0].toLowerCase() === V4_SWAP_TOPIC);
  if (!swaps.length) return keys;
  const tokens = [
    ...new Set(r.logs.filter((l) => l.topics.length === 3 && l.topics[0].toLowerCase() === ERC20_TRANSFER_TOPIC).map((l) => l.address.toLowerCase())),
  ];
  const hooks = [NATIVE_ADDRESS, ...new Set([...r.logs.map((l) => l.address.toLowerCase()), ...(r.to ? [r.to.toLowerCase()] : [])])];
  for (const s of swaps) {
    const id = s.topics[1].toLowerCase();
    if (keys.has(id)) continue;
    const k = searchPoolKey(id, [NATIVE_ADDRESS, ...tokens], hooks);
    if (k) keys.set(id, k);
  }
  return keys;
}

/** The decoder's trades' tokens for the wallet, given the same trace. */
const decodedTokens = (f: MainnetFixture, wallet: string) => decodeReceipt(f.receipt, wallet, chainOf(f.chain), poolKeysOf(f), traced(f)).map((t) => t.token);

const changesOf = (a: TransactionActivity | null) => a?.changes.map((c) => [c.tokenMint, c.raw, c.decimals]);

const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';

describe('evmActivity: swaps', () => {
  it('a 1inch swap (eth 0x7e98fc61): exact changes, explained by the decoder, unexplained with its venue taken out of the tables', () => {
    const f = fixture('eth', '0x7e98fc61cdec43a7b886a9d045264bcc9292b2a34f8c466e4270ee6671684b69');
    const wallet = '0x456325f2ac7067234dd71e01bebe032b0255e039';
    const RNDR = '0x6de037ef9ad2725eb40118bb1702ebb27e4aeb24';
    // #27 RNDR maker 0x2008b6c3 -> wallet 634912997630527012864 (first seen), #28 USDT wallet ->
    // maker 1457408044; #29 is 1inch's OrderFilled. No value, no internal rows.
    const a = evmActivity(f.receipt, wallet, chainOf('eth'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [RNDR, 634912997630527012864n, null],
      [USDT, -1457408044n, null],
    ]);
    expect(a.incidentalNative).toBe(0n);
    expect(a.knownNonTrade).toBe(false);
    // The router the transaction called first, then the emitters in log order.
    expect(a.programs).toEqual(['0x1111111254fb6c44bac0bed2854e76f90643097d', RNDR, USDT]);
    expect(evmActivity(f.receipt, wallet, chainOf('eth'))).toEqual(a);

    const tokens = decodedTokens(f, wallet);
    expect(new Set(tokens)).toEqual(new Set([USDT, RNDR]));
    expect(isUnexplained(a, tokens)).toBe(false);
    // A decoder that knew no venue here would give no trade: gave USDT, received RNDR, named by none.
    expect(isUnexplained(a, [])).toBe(true);
    // One side named is not enough.
    expect(isUnexplained(a, [USDT])).toBe(true);
  });

  it('ETH for USDC through ParaSwap (eth 0x6fa4a6a9): the ETH given is the transaction value, seen only when given', () => {
    const f = fixture('eth', '0x6fa4a6a9c0d9c5aad831cc1ff149fb7683c0573db93571bc43acb5b4848314ae');
    const wallet = '0xe952e50d1f82bbfb5054311ca689807e343a1ab8';
    // value 350000000000000000 wallet -> Augustus 0xdef171fe; Augustus wraps it (#319 Deposit by
    // Augustus, internal row Augustus -> WETH: the wrap's ETH side) and pays the pair (#320): not the
    // wallet's. #321 USDC pair 0x2e8135be -> wallet 835818110.
    const a = evmActivity(f.receipt, wallet, chainOf('eth'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [null, -350000000000000000n, 18],
      [USDC, 835818110n, null],
    ]);
    expect(a.knownNonTrade).toBe(false);
    expect(isUnexplained(a, decodedTokens(f, wallet))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);

    // Logs alone: only the USDC received shows, which is no exchange.
    const logsOnly = evmActivity(f.receipt, wallet, chainOf('eth'))!;
    expect(changesOf(logsOnly)).toEqual([[USDC, 835818110n, null]]);
    expect(isUnexplained(logsOnly, [])).toBe(false);
    // The value alone (no internal rows) gives the same as the full trace: the wrap's internal call is no change.
    expect(evmActivity(f.receipt, wallet, chainOf('eth'), { transaction: traced(f).transaction })).toEqual(a);
  });

  it('a ledger logged by two contracts counts once (gnosis 0x421c23d3, EURe v1 and v2)', () => {
    const f = fixture('gnosis', '0x421c23d305703a57ea0b64cfc75e8f13b6db2ef30fba321ae19eecd1b91695bc');
    const wallet = '0xbf4ebea7279de8517f60bd5fdbe9aebe03de90ed';
    const EURE_V1 = '0xcb444e90d8198415266c6a2724b7900fb12fc56e';
    // #55 (0x420ca0f9, v2) and #56 (0xcb444e90, v1) both log wallet -> executor 0x000010036c
    // 4867050000000000000000: one movement, kept on the face that logs second. The xDAI comes back
    // by internal call: Augustus -> wallet 5023571670221034649200 (the executor's unwrap, #68, and
    // WXDAI -> executor, are not the wallet's).
    const a = evmActivity(f.receipt, wallet, chainOf('gnosis'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [null, 5023571670221034649200n, 18],
      [EURE_V1, -4867050000000000000000n, null],
    ]);
    expect(isUnexplained(a, decodedTokens(f, wallet))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });
});

describe('evmActivity: wraps', () => {
  it('a WETH9 deposit by the wallet (eth 0x5bb623b3) changes nothing and is a known non-trade', () => {
    const f = fixture('eth', '0x5bb623b365def9650816dcbaf1babde8fd0ebed737db36d3a033d7cf63792daf');
    const wallet = '0x4b078a6a7026c32d2d6aff763e2f37336cf552dd';
    // value 60000000000000000 wallet -> WETH, #101 Deposit(dst = wallet, 60000000000000000): same asset.
    for (const a of [evmActivity(f.receipt, wallet, chainOf('eth'), traced(f)), evmActivity(f.receipt, wallet, chainOf('eth'))]) {
      expect(a?.changes).toEqual([]);
      expect(a?.knownNonTrade).toBe(true);
      expect(a?.programs).toEqual(['0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2']);
      expect(isUnexplained(a!, [])).toBe(false);
    }
  });

  it('a WETH9 withdrawal (eth 0x1f3aa6f7) and an Arbitrum WETH burn (arbitrum 0xc19c7e1e) change nothing', () => {
    // #69 Withdrawal(src = wallet, 500000000000000000); internal row WETH -> wallet 500000000000000000.
    const eth = fixture('eth', '0x1f3aa6f7d33bfaaaf9cdd92b16fecdf911341601c02ad89b4ec0b80c66c28a07');
    const a = evmActivity(eth.receipt, '0x4b2975aff4def34d3cd4f4759b45faf738d790d3', chainOf('eth'), traced(eth))!;
    expect(a.changes).toEqual([]);
    expect(a.knownNonTrade).toBe(true);
    // #13 WETH Transfer wallet -> 0x0 520000000000000 (Arbitrum's WETH logs its unwraps as burns); internal row WETH -> wallet.
    const arb = fixture('arbitrum', '0xc19c7e1e0af7819b1922a287d034540e8f8dba4e065317d6483d48ac27e727e9');
    const b = evmActivity(arb.receipt, '0xbe6660fbe96b61b72bf35ffab40eb2ca886a7f85', chainOf('arbitrum'), traced(arb))!;
    expect(b.changes).toEqual([]);
    expect(b.knownNonTrade).toBe(true);
  });
});

describe('evmActivity: liquidity, deposits and zaps are known non-trades', () => {
  it('a Uniswap V2 liquidity add (eth 0x1bab8a89): the LP token minted to the wallet', () => {
    const f = fixture('eth', '0x1bab8a89a6a3f8cb127cfaf7cd58809201a4e230d0a05f9e067674749605959e');
    const wallet = '0xcc917ab28544c80e2f0e8effbd22551a3cb096be';
    const PAIR = '0xae461ca67b15dc8dc81ce7615e0320da1a9ab8d5';
    // #117 USDC wallet -> pair 25000000, #118 DAI wallet -> pair 24994824629555601269, #119 LP 0x0 -> wallet 22187913295974.
    const a = evmActivity(f.receipt, wallet, chainOf('eth'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [USDC, -25000000n, null],
      [DAI, -24994824629555601269n, null],
      [PAIR, 22187913295974n, null],
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(decodedTokens(f, wallet)).toEqual([]);
    expect(isUnexplained(a, [])).toBe(false);
    // It is swap-shaped: only the mint keeps it off the list.
    expect(isUnexplained({ ...a, knownNonTrade: false }, [])).toBe(true);
  });

  it('a Compound cETH mint (eth 0x06a8b9f7): ETH value in, cTokens from the cToken itself', () => {
    const f = fixture('eth', '0x06a8b9f758b0471886186c2a48dea189b3044916c7f94ee7f559026fefd91c39');
    const wallet = '0x5727c0481b90a129554395937612d8b9301d6c7b';
    const CETH = '0x4ddc2d193948926d02f9b1fe9e1daa0718270ed5';
    // value 500000000000000000 wallet -> cETH; #31 cETH Transfer cETH -> wallet 2497649991.
    const a = evmActivity(f.receipt, wallet, chainOf('eth'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [null, -500000000000000000n, 18],
      [CETH, 2497649991n, null],
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
  });

  it('a Uniswap V2 liquidity remove (eth 0x0936a16e): the LP token returned to the pair and burnt', () => {
    const f = fixture('eth', '0x0936a16e1d3655e832c60bed52040fd5ac0d99d03865d11225b3183dba318f43');
    const wallet = '0x65fc65c639467423bf19801a59fcfd62f0f29777';
    const PAIR = '0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc';
    // #32 LP wallet -> pair 96176228659 (#33 pair -> 0x0, the burn); #38 USDC router -> wallet
    // 7073493; WETH pair -> router (#35) unwrapped by the router (#39), ETH router -> wallet
    // 5839327781368506 by internal call (row 2; row 1 is WETH -> router, the unwrap's side).
    const a = evmActivity(f.receipt, wallet, chainOf('eth'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [null, 5839327781368506n, 18],
      [PAIR, -96176228659n, null],
      [USDC, 7073493n, null],
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
  });

  it('a Beefy zap (arbitrum 0x9ade23d1): vault shares minted to the zap and passed on to the wallet', () => {
    const f = fixture('arbitrum', '0x9ade23d1ea48257b13e983d0a542fafbfa1dd195975a94b8d3505ef767527167');
    const wallet = '0xd67ecd5c445519bdeae60fd53541100f5d9f5fb1';
    const MOO = '0x764e4e75e3738615cdbfaeae0c8527b1616e1123';
    // value 238936751377925280 wallet -> zap; #54 WETH strategy -> wallet 1355478180152 (a harvest
    // call fee, native); #104 moo 0x0 -> zap 219166695622906559, #105 zap -> wallet the same.
    // Native: -238936751377925280 + 1355478180152 = -238935395899745128.
    const a = evmActivity(f.receipt, wallet, chainOf('arbitrum'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [null, -238935395899745128n, 18],
      [MOO, 219166695622906559n, null],
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
  });

  it('a Curve zap removal (eth 0xbf4a445d): the LP token given to the zap, which burnt all of it', () => {
    const f = fixture('eth', '0xbf4a445d0452e2f1e046c3ab3d10018c801e2acae89051c98332e9264f36d7f7');
    const wallet = '0xc7bfb2ed20d14407c78cc1fc4a4abe39f1964964';
    const LP = '0xe9123cbc5d1ea65301d417193c40a72ac8d53501';
    // #38 LP wallet -> zap 95093489007941270920107, #41 zap -> 0x0 the same; #48-#51 zap -> wallet:
    // 0x94a18d9f 56718010997734097866656, DAI 14119166521016875857287, USDC 16072772093, USDT 8326299501.
    const a = evmActivity(f.receipt, wallet, chainOf('eth'), traced(f))!;
    expect(changesOf(a)).toEqual([
      [LP, -95093489007941270920107n, null],
      ['0x94a18d9fe00bab617fad8b49b11e9f1f64db6b36', 56718010997734097866656n, null],
      [DAI, 14119166521016875857287n, null],
      [USDC, 16072772093n, null],
      [USDT, 8326299501n, null],
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
  });

  it("a zap into a V3 position (arbitrum 0xbdfe4bfb): the position NFT and the zap's leftover token", () => {
    const f = fixture('arbitrum', '0xbdfe4bfba8932fafed46a0cae44a945088c2496e1ef3c643d315159f900c338b');
    const wallet = '0x706a70067be19bdadbea3600db0626859ff25d74';
    // #2 USDC wallet -> zapper 100768463; #43 NFT 2985371 (0x2d8d9b) minted to the zapper, #46
    // zapper -> wallet (four topics: not fungible); #48 DMT zapper -> wallet 44879191744967 (dust).
    const a = evmActivity(f.receipt, wallet, chainOf('arbitrum'), traced(f))!;
    expect(changesOf(a)).toEqual([
      ['0xaf88d065e77c8cc2239327c5edb3a432268e5831', -100768463n, null],
      ['0x8b0e6f19ee57089f7649a455d89d7bc6314d04e8', 44879191744967n, null],
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
  });
});

describe('evmActivity: no exchange', () => {
  it('a USDT transfer (eth 0x38ed9c2d), for its sender and for its recipient', () => {
    const f = fixture('eth', '0x38ed9c2d4f0855f2d88823d502f8794b993d28741da48724b7dfb559de520602');
    // #307 USDT sender 0x6e15887e -> 0xb5d85cbf 1166000000; no internal rows recorded.
    const sent = evmActivity(f.receipt, '0x6e15887e2cec81434c16d587709f64603b39b545', chainOf('eth'), traced(f))!;
    expect(changesOf(sent)).toEqual([[USDT, -1166000000n, null]]);
    expect(sent.programs).toEqual([USDT]);
    expect(isUnexplained(sent, [])).toBe(false);
    // The recipient did not send it: judged on what the logs show.
    const received = evmActivity(f.receipt, '0xb5d85cbf7cb3ee0d56b3bb207d5fc4b82f43f511', chainOf('eth'))!;
    expect(changesOf(received)).toEqual([[USDT, 1166000000n, null]]);
    expect(received.knownNonTrade).toBe(false);
    expect(isUnexplained(received, [])).toBe(false);
  });

  it('a native transfer (eth 0x2e68dd82): the value, both ways; nothing from logs alone', () => {
    const f = fixture('eth', '0x2e68dd828594ea71fe0afccfad7748c90ffcd0f1add44d0d249bf79887da9318');
    const to = '0x2819c144d5946404c0516b6f817a960db37d4929';
    // value 20423285624013049 from 0x2388d797 to 0x2819c144, no logs.
    const sent = evmActivity(f.receipt, '0x2388d79792c59fc66f993c3c6482ebd689cf9cd4', chainOf('eth'), traced(f))!;
    expect(changesOf(sent)).toEqual([[null, -20423285624013049n, 18]]);
    expect(sent.programs).toEqual([to]);
    expect(isUnexplained(sent, [])).toBe(false);
    expect(changesOf(evmActivity(f.receipt, to, chainOf('eth'), traced(f)))).toEqual([[null, 20423285624013049n, 18]]);
    expect(changesOf(evmActivity(f.receipt, '0x2388d79792c59fc66f993c3c6482ebd689cf9cd4', chainOf('eth')))).toEqual([]);
  });

  it('a failed transaction (eth 0x7b649474, status 0x0) has no activity', () => {
    const f = fixture('eth', '0x7b6494743e99a8638d579b7725b0061eca590df20e023df483404f353dcd8bad');
    expect(f.receipt.status).toBe('0x0');
    expect(evmActivity(f.receipt, '0x290ca4da2c963dea5ae736469a5b8a53d64d4e6a', chainOf('eth'), traced(f))).toBeNull();
  });
});

describe('evmActivity over the whole mainnet set', () => {
  const entries = GOLDENS.map((g) => ({ g, f: fixture(g.chain, g.hash) }));

  it("every transaction with golden trades for the wallet that sent it is explained by the decoder's trades", () => {
    const traded = entries.filter(({ g, f }) => g.trades.length > 0 && f.receipt.from.toLowerCase() === g.wallet);
    expect(traded.length).toBeGreaterThan(150);
    const unexplained = traded.filter(({ g, f }) => {
      const a = evmActivity(f.receipt, g.wallet, chainOf(g.chain), traced(f));
      return (
        a === null ||
        isUnexplained(a, decodedTokens(f, g.wallet)) ||
        isUnexplained(
          a,
          g.trades.map((t) => t.tokenMint),
        )
      );
    });
    expect(unexplained.map(({ g }) => `${g.chain} ${g.hash}`)).toEqual([]);
  });

  it('so is every one whose wallet did not send it (settlements, Safes, ERC-4337 operations)', () => {
    const traded = entries.filter(({ g, f }) => g.trades.length > 0 && f.receipt.from.toLowerCase() !== g.wallet);
    expect(traded.length).toBeGreaterThan(5);
    const unexplained = traded.filter(({ g, f }) => isUnexplained(evmActivity(f.receipt, g.wallet, chainOf(g.chain), traced(f))!, decodedTokens(f, g.wallet)));
    expect(unexplained.map(({ g }) => `${g.chain} ${g.hash}`)).toEqual([]);
  });

  it('no transaction the goldens read as no trade is unexplained, with a trace or from logs alone', () => {
    const none = entries.filter(({ g }) => g.trades.length === 0);
    expect(none.length).toBeGreaterThan(40);
    const flagged = none.filter(({ g, f }) =>
      [evmActivity(f.receipt, g.wallet, chainOf(g.chain), traced(f)), evmActivity(f.receipt, g.wallet, chainOf(g.chain))].some(
        (a) => a !== null && isUnexplained(a, []),
      ),
    );
    expect(flagged.map(({ g }) => `${g.chain} ${g.hash}`)).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keccak256, toHex } from 'viem';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { formatUnits } from '../../src/lib/core/decimal.js';
import { hexToTron, toInternalHex, tronToHex } from '../../src/lib/chains/tron/address.js';
import { TRON_AGGREGATORS } from '../../src/lib/chains/tron/decode/aggregators.js';
import { decodeTronTransaction, type TronDecodeOptions } from '../../src/lib/chains/tron/decode/decode-transaction.js';
import {
  decodePoolKeyAnswer,
  HOOK_FEE_TOPIC,
  POOL_ID_TO_POOL_KEY_SELECTOR,
  poolIdsNeedingKeys,
  SUNSWAP_V4_POOL_MANAGER,
  type TronPoolKey,
} from '../../src/lib/chains/tron/decode/sunswap-v4.js';
import { createMemoryCache } from '../../src/lib/core/chain-source.js';
import { createTronSource } from '../../src/lib/chains/tron/source.js';
import { createHttpJsonClient } from '../../src/lib/rpc/http-json.js';
import {
  constructedOkxRoutes,
  constructedV4Routes,
  loadTronCaptures,
  loadTronTokens,
  MANAGER,
  POOL_TRX_SUN,
  senderOf,
  startTronReplayServer,
  TRON_V4_POOLS,
  type TronReplayServer,
  type TronReplayTx,
} from '../support/tron-replay/index.js';
import { CONSTRUCTED_GOLDEN } from './golden-constructed.js';
import { GOLDEN } from './golden.js';

const captures = loadTronCaptures();
const tokens = new Map(loadTronTokens().map((t) => [t.address, t]));
const byId = (prefix: string): TronReplayTx => captures.find((c) => c.record.txID.startsWith(prefix))!;
const c9628c03 = byId('c9628c03');
const constructed = [...constructedV4Routes(c9628c03), ...constructedOkxRoutes(byId('e41f064b'), byId('7b6589b2'))];
const named = (name: string) => constructed.find((c) => c.name === name)!.tx;

/** The pool keys the manager would answer, as the decoder takes them. */
const KEYS = new Map<string, TronPoolKey>(
  TRON_V4_POOLS.map((p) => [
    p.id,
    {
      currency0: p.currency0,
      currency1: tronToHex(p.currency1)!,
      hooks: p.hooks.startsWith('T') ? tronToHex(p.hooks)! : p.hooks,
      fee: p.fee,
      tickSpacing: Number(p.parameters >> 16n),
    },
  ]),
);

function decode(tx: TronReplayTx, options: TronDecodeOptions = {}) {
  const v = tx.record.raw_data.contract[0].parameter.value;
  const call = { owner: toInternalHex(v.owner_address), contract: toInternalHex(v.contract_address), callValue: BigInt(v.call_value ?? 0) };
  return decodeTronTransaction(call, tx.info, tronToHex(senderOf(tx))!, options).map((d) => {
    const mint = hexToTron(d.token);
    const t = tokens.get(mint)!;
    return {
      side: d.side,
      token: t.symbol,
      tokenMint: mint,
      amountSol: d.nativeRaw === null ? null : formatUnits(d.nativeRaw, 6),
      amount: formatUnits(d.amountRaw, t.decimals),
      dex: d.poolKind,
    };
  });
}

describe('SunSwap V4 pool keys', () => {
  it('have the selector, event topic and manager of their public sources', () => {
    expect('0x' + POOL_ID_TO_POOL_KEY_SELECTOR).toBe(keccak256(toHex('poolIdToPoolKey(bytes32)')).slice(0, 10));
    expect(HOOK_FEE_TOPIC).toBe(keccak256(toHex('HookFee(bytes32,address,uint128,uint128)')));
    expect(hexToTron(SUNSWAP_V4_POOL_MANAGER)).toBe(MANAGER);
  });

  it("hash to the id the real sale's Swap log names (the key read from its calldata: TRX, SUN, no hook, fee 3,000, parameters 0x10000)", () => {
    const swap = c9628c03.info.log.find((l: any) => l.topics.length === 3 && l.topics[0].startsWith('04206ad2'));
    expect('0x' + swap.topics[1]).toBe(POOL_TRX_SUN.id);
  });

  it('are taken from the manager only when they hash to the id asked for', () => {
    const w = (v: bigint) => v.toString(16).padStart(64, '0');
    const sun = BigInt(tronToHex('TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S')!);
    const answer = '0x' + w(0n) + w(sun) + w(0n) + w(3000n) + w(0x10000n);
    expect(decodePoolKeyAnswer(POOL_TRX_SUN.id, answer)).toEqual({
      currency0: '0x0000000000000000000000000000000000000000',
      currency1: tronToHex('TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S'),
      hooks: '0x0000000000000000000000000000000000000000',
      fee: 3000,
      tickSpacing: 1,
    });
    // an unknown id answers zeros; a key of another pool does not hash to this id
    expect(decodePoolKeyAnswer(POOL_TRX_SUN.id, '0x' + '0'.repeat(320))).toBeNull();
    expect(decodePoolKeyAnswer(POOL_TRX_SUN.id, '0x' + w(0n) + w(sun) + w(0n) + w(500n) + w(0x10000n))).toBeNull();
    expect(decodePoolKeyAnswer(POOL_TRX_SUN.id, null)).toBeNull();
    // the repository's older ABI (a poolManager word before fee, left out of the id) and
    // PancakeSwap Infinity's six-field key (all six hashed)
    const manager = w(BigInt(SUNSWAP_V4_POOL_MANAGER));
    expect(decodePoolKeyAnswer(POOL_TRX_SUN.id, '0x' + w(0n) + w(sun) + w(0n) + manager + w(3000n) + w(0x10000n))).toMatchObject({ fee: 3000, tickSpacing: 1 });
    const six = w(0n) + w(sun) + w(0n) + manager + w(3000n) + w(0x3c0000n);
    expect(decodePoolKeyAnswer(keccak256(`0x${six}`), '0x' + six)).toMatchObject({ fee: 3000, tickSpacing: 60 });
  });

  it('are needed only where one manager swapped more than once', () => {
    expect(poolIdsNeedingKeys(c9628c03.info.log).size).toBe(0);
    expect([...poolIdsNeedingKeys(named('sun-trx-usdt').info.log).keys()]).toEqual([POOL_TRX_SUN.id, TRON_V4_POOLS[1].id]);
  });
});

describe('Tron routes (CONSTRUCTED transactions, expectations by hand in golden-constructed.ts)', () => {
  for (const g of CONSTRUCTED_GOLDEN) {
    it(`${g.name}: ${g.why}`, () => {
      const tx = named(g.name);
      expect(senderOf(tx)).toBe(g.wallet);
      expect(decode(tx, { poolKeys: KEYS })).toEqual(g.trades);
    });
  }

  it('keeps no TRX middle leg where the pool keys could not be read (nothing says which delta is TRX)', () => {
    expect(decode(named('sun-trx-usdt')).map((t) => t.amountSol)).toEqual([null, null]);
  });

  it('gives the real captures the same trades with the keys as without', () => {
    for (const g of GOLDEN) {
      const tx = byId(g.txid);
      expect(decode(tx, { poolKeys: KEYS }), g.txid).toEqual(g.trades);
    }
  });

  it("names OKX's routers from its documentation, and gives a SunSwap router's route its pools' venues", () => {
    expect([...TRON_AGGREGATORS.keys()].map(hexToTron).sort()).toEqual(
      ['TAGVH5t42MuofaAfUauPPRe4Qw3i8Z3QHM', 'TTWd2hBKmEmYiCXtm4TiZ1FjzVQJaVm8N4', 'TVbYrdupAymaF5ibPo2WREho7g23rQcqC7'].sort(),
    );
    expect(decode(byId('e41f064b')).map((t) => t.dex)).toEqual(['sunswap-v3']);
  });
});

describe('Tron source on constructed V4 routes', () => {
  let server: TronReplayServer;
  beforeAll(async () => {
    server = await startTronReplayServer({ transactions: constructed.map((c) => c.tx), tokens: loadTronTokens(), v4Pools: TRON_V4_POOLS });
  });
  afterAll(() => server?.close());

  it("reads each pool's key once from the manager and yields the hand-checked trades", async () => {
    const poolKeys = createMemoryCache<TronPoolKey>();
    const source = () =>
      createTronSource({
        rpcUrl: server.url,
        tokens: createMemoryTokenCache(),
        poolKeys,
        client: createHttpJsonClient({ url: server.url, baseDelayMs: 2, maxDelayMs: 20 }),
      });
    for (const wallet of new Set(CONSTRUCTED_GOLDEN.map((g) => g.wallet))) {
      const trades = [];
      for await (const b of source().history({ wallet })) trades.push(...b.trades);
      const want = CONSTRUCTED_GOLDEN.filter((g) => g.wallet === wallet)
        .sort((a, b) => b.blockTime.localeCompare(a.blockTime))
        .flatMap((g) => g.trades.map((t) => ({ ...t, blockTime: g.blockTime })));
      expect(trades.map(({ signature: _s, position: _p, leg: _l, ...t }) => t)).toEqual(want);
    }
    // the four pools of the multi-hop routes, once each (the single-hop route needs none)
    expect(server.stats.poolKeyCalls).toBe(4);
    expect(server.stats.notFound).toBe(0);
    server.resetStats();
    for await (const _ of source().history({ wallet: 'TPoQq65NQYpYTBcxCUozQPUDKSHHdXuTLi' }));
    expect(server.stats.poolKeyCalls).toBe(0);
  });

  it('gives a history stored before these rules its new trades when it is decoded again', async () => {
    const src = createTronSource({
      rpcUrl: server.url,
      tokens: createMemoryTokenCache(),
      client: createHttpJsonClient({ url: server.url, baseDelayMs: 2, maxDelayMs: 20 }),
    });
    const g = CONSTRUCTED_GOLDEN.find((x) => x.name === 'sun-trx-usdt')!;
    const tx = named(g.name);
    const { trades } = await src.redecode!({ wallet: g.wallet, transactions: [{ signature: tx.record.txID, position: `${tx.record.blockNumber}.0` }] });
    expect(trades.map(({ signature: _s, position: _p, leg: _l, ...t }) => t)).toEqual(g.trades.map((t) => ({ ...t, blockTime: g.blockTime })));
  });
});

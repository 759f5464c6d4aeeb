/**
 * CONSTRUCTED Tron transactions, for routes no public capture shows: a token -> TRX -> token
 * route through two SunSwap V4 pools (the TRX middle leg never leaves the manager), V4 hooks that
 * take TRX, and routes through OKX's DEX router. Each is composed from a real capture (the
 * MetaMask snap's Universal Router captures c9628c03 and e41f064b, the smart-router capture
 * 7b6589b2: their records, logs and internal transactions) with the changes listed at each
 * builder, every changed log in the real event's shape (topics, word layout, sign convention).
 * Expected trades are worked out by hand in tests/tron/golden-constructed.ts; nothing here asks
 * the decoder.
 *
 * SunSwap V4 pool keys are facts the replay answers `poolIdToPoolKey` from: the real pool of
 * c9628c03 (its key is in the transaction's own calldata, the Universal Router's V4 action
 * parameters: TRX, SUN, no hook, fee 3,000, parameters 0x10000) and constructed pools, each
 * checked against its id (keccak-256 of the ABI-encoded key) as the chain makes it.
 */
import { createHash } from 'node:crypto';
import { keccak256, toHex } from 'viem';
import { hexToTron, tronToHex } from '../../../src/lib/chains/tron/address.js';
import type { TronReplayTx } from './fixtures.js';

/** A SunSwap V4 pool as the manager stores it (five fields; its id is their hash). */
export interface TronV4PoolFacts {
  /** The PoolManager, base58. */
  manager: string;
  currency0: string;
  currency1: string;
  hooks: string;
  fee: number;
  /** CL parameters as a 32-byte word (tick spacing << 16 | hook permission bits). */
  parameters: bigint;
  /** Pool id, 0x + 64 hex. */
  id: string;
  origin: 'real' | 'constructed';
}

const h = (t: string) => tronToHex(t)!.slice(2);
const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');
const uint = (v: bigint) => BigInt.asUintN(256, v).toString(16).padStart(64, '0');
const topic = (sig: string) => keccak256(toHex(sig)).slice(2);

export const MANAGER = 'TVjuTE3V5bMVdpfNhid8kD2v35T2k1u1Br';
const TRX = '0x0000000000000000000000000000000000000000';
const SUN = 'TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** OKX DEX router on Tron (OKX DEX API docs, "Smart Contract"): the current and the previous address. */
export const OKX_ROUTER = 'TTWd2hBKmEmYiCXtm4TiZ1FjzVQJaVm8N4';
export const OKX_ROUTER_PREVIOUS = 'TAGVH5t42MuofaAfUauPPRe4Qw3i8Z3QHM';
const UNIVERSAL_ROUTER = 'TQqgNg13s2DjvXhW1ky4v6TsR8wZGvb7Y4';
const SMART_ROUTER = 'TCFNp179Lg46D16zKoumd4Poa2WFFdtqYj';

/** Constructed accounts (test values): two hooks and a treasury, 20 bytes of a hash each. */
const constructedAccount = (name: string) => hexToTron(keccak256(toHex(`constructed ${name}`)).slice(-40));
export const HOOK_1 = constructedAccount('hook 1');
export const HOOK_2 = constructedAccount('hook 2');
export const TREASURY = constructedAccount('hook treasury');

export function poolIdOf(k: { currency0: string; currency1: string; hooks: string; fee: number; parameters: bigint }): string {
  const addr = (a: string) => word(a.startsWith('T') ? h(a) : a);
  return keccak256(`0x${addr(k.currency0)}${addr(k.currency1)}${addr(k.hooks)}${uint(BigInt(k.fee))}${uint(k.parameters)}`);
}

function pool(origin: TronV4PoolFacts['origin'], k: { currency1: string; hooks: string; fee: number; parameters: bigint }): TronV4PoolFacts {
  const facts = { manager: MANAGER, currency0: TRX, ...k };
  return { ...facts, id: poolIdOf(facts), origin };
}

/** TRX/SUN, fee 3,000, tick spacing 1: the real pool of c9628c03 (id f4c7d55f…, the id its Swap log names). */
export const POOL_TRX_SUN = pool('real', { currency1: SUN, hooks: TRX, fee: 3000, parameters: 0x10000n });
/** Constructed: TRX/USDT, fee 500, tick spacing 10, no hook. */
export const POOL_TRX_USDT = pool('constructed', { currency1: USDT, hooks: TRX, fee: 500, parameters: 0xa0000n });
/** Constructed: TRX/SUN with HOOK_1 (it takes a fee in TRX from the swap's output). */
export const POOL_TRX_SUN_HOOKED = pool('constructed', { currency1: SUN, hooks: HOOK_1, fee: 3000, parameters: 0x10000n });
/** Constructed: TRX/USDT with HOOK_2 (it takes a fee in TRX from the swap's input). */
export const POOL_TRX_USDT_HOOKED = pool('constructed', { currency1: USDT, hooks: HOOK_2, fee: 500, parameters: 0xa0000n });

export const TRON_V4_POOLS: readonly TronV4PoolFacts[] = [POOL_TRX_SUN, POOL_TRX_USDT, POOL_TRX_SUN_HOOKED, POOL_TRX_USDT_HOOKED];

const SWAP_V4 = topic('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24,uint16)');
const TRANSFER = topic('Transfer(address,address,uint256)');
const HOOK_FEE = topic('HookFee(bytes32,address,uint128,uint128)');

/** A V4 `Swap` log: the swapper's deltas (negative: paid in), then price, liquidity, tick, fee and protocol fee (test values). */
function swapLog(p: TronV4PoolFacts, sender: string, amount0: bigint, amount1: bigint) {
  const state = uint(0x3a3e5c3c7a1b2d7e3f4c5b6an) + uint(0x5f5e100000n) + uint(-12_000n) + uint(BigInt(p.fee)) + uint(0n);
  return { address: h(MANAGER), topics: [SWAP_V4, p.id.slice(2), word(h(sender))], data: uint(amount0) + uint(amount1) + state };
}
const transferLog = (token: string, from: string, to: string, v: bigint) => ({
  address: h(token),
  topics: [TRANSFER, word(h(from)), word(h(to))],
  data: uint(v),
});
function internal(from: string, to: string, value?: bigint) {
  const a = '41' + h(from);
  const b = '41' + h(to);
  return {
    hash: createHash('sha256')
      .update(a + b + String(value ?? 0n))
      .digest('hex'),
    caller_address: a,
    transferTo_address: b,
    callValueInfo: [value ? { callValue: Number(value) } : {}],
    note: '63616c6c',
  };
}

/** The capture with a fresh id (a memo, field 10 of the signed raw data, appended) at `block`. */
function reissue(tx: TronReplayTx, memo: number, blockOffset: number, origin: string): TronReplayTx {
  // a capture without its signed raw data (7b6589b2) gets its JSON's bytes as the base
  const base = tx.record.raw_data_hex ?? Buffer.from(JSON.stringify(tx.record.raw_data)).toString('hex');
  const raw = base + '5208' + memo.toString(16).padStart(16, '0');
  const id = createHash('sha256').update(Buffer.from(raw, 'hex')).digest('hex');
  const block = tx.info.blockNumber + blockOffset;
  const ms = tx.info.blockTimeStamp + blockOffset * 3000;
  return {
    record: { ...tx.record, txID: id, raw_data_hex: raw, blockNumber: block, block_timestamp: ms },
    info: { ...tx.info, id, blockNumber: block, blockTimeStamp: ms },
    origin,
  };
}

/** Every occurrence of one account's 40 hex digits replaced by another's, in record and info. */
function rekey(tx: TronReplayTx, from: string, to: string): TronReplayTx {
  return JSON.parse(JSON.stringify(tx).replaceAll(h(from), h(to)));
}

export interface ConstructedTx {
  name: string;
  tx: TronReplayTx;
}

/**
 * From c9628c03 (sale of 2 SUN through the Universal Router, V4 pool TRX/SUN): its SUN Transfer
 * into the manager and Permit2 Approval kept, its Swap kept (or re-pointed at a hooked pool id,
 * same amounts), its two TRX payouts (manager -> router -> wallet, 105,375 sun) replaced by what
 * each route below moves.
 */
export function constructedV4Routes(c9628c03: TronReplayTx): ConstructedTx[] {
  const wallet = hexToTron(c9628c03.record.raw_data.contract[0].parameter.value.owner_address);
  const [sunIn, approval, realSwap] = c9628c03.info.log;
  const calls = c9628c03.info.internal_transactions.filter((it: any) => !it.callValueInfo?.[0]?.callValue);
  const ur = UNIVERSAL_ROUTER;
  const build = (name: string, n: number, log: any[], extraInternal: any[]) => {
    const base = reissue(c9628c03, n, n, `constructed:${name}`);
    base.info = { ...base.info, log, internal_transactions: [...calls, ...extraInternal] };
    return { name, tx: base };
  };
  const hop1Hooked = { ...realSwap, topics: [realSwap.topics[0], POOL_TRX_SUN_HOOKED.id.slice(2), realSwap.topics[2]] };
  return [
    // 2 SUN -> 105,375 sun (the real hop) -> 32,561 USDT: the TRX stays in the manager
    build(
      'sun-trx-usdt',
      1,
      [sunIn, approval, realSwap, swapLog(POOL_TRX_USDT, ur, -105_375n, 32_561n), transferLog(USDT, MANAGER, wallet, 32_561n)],
      [internal(MANAGER, USDT)],
    ),
    // the same with HOOK_1 on the first pool: it takes 1,375 sun of the hop's TRX output to its
    // treasury (the manager pays it out); 104,000 sun go on into the second pool
    build(
      'sun-trx-usdt-hook-on-sell',
      2,
      [sunIn, approval, hop1Hooked, swapLog(POOL_TRX_USDT, ur, -104_000n, 32_136n), transferLog(USDT, MANAGER, wallet, 32_136n)],
      [internal(MANAGER, HOOK_1), internal(MANAGER, TREASURY, 1_375n), internal(MANAGER, USDT)],
    ),
    // HOOK_2 on the second pool takes 1,375 sun of the TRX coming in, to itself; its pool swaps 104,000
    build(
      'sun-trx-usdt-hook-on-buy',
      3,
      [sunIn, approval, realSwap, swapLog(POOL_TRX_USDT_HOOKED, ur, -104_000n, 32_136n), transferLog(USDT, MANAGER, wallet, 32_136n)],
      [internal(MANAGER, HOOK_2), internal(MANAGER, HOOK_2, 1_375n), internal(MANAGER, USDT)],
    ),
    // HOOK_2 states its 1,375 sun fee in a HookFee event and keeps it as a claim in the manager: no TRX moves
    build(
      'sun-trx-usdt-hookfee-event',
      4,
      [
        sunIn,
        approval,
        realSwap,
        swapLog(POOL_TRX_USDT_HOOKED, ur, -104_000n, 32_136n),
        { address: h(HOOK_2), topics: [HOOK_FEE, POOL_TRX_USDT_HOOKED.id.slice(2), word(h(ur))], data: uint(1_375n) + uint(0n) },
        transferLog(USDT, MANAGER, wallet, 32_136n),
      ],
      [internal(MANAGER, HOOK_2), internal(MANAGER, USDT)],
    ),
    // the other way: 0.5 USDT -> 1,617,000 sun -> 30.7 SUN, the USDT in, the SUN out
    build(
      'usdt-trx-sun',
      5,
      [
        transferLog(USDT, wallet, MANAGER, 500_000n),
        swapLog(POOL_TRX_USDT, ur, 1_617_000n, -500_000n),
        swapLog(POOL_TRX_SUN, ur, -1_617_000n, 30_700_000_000_000_000_000n),
        transferLog(SUN, MANAGER, wallet, 30_700_000_000_000_000_000n),
      ],
      [internal(MANAGER, USDT), internal(MANAGER, SUN)],
    ),
    // one hop, HOOK_1's pool: of the 105,375 sun the pool swapped out, 375 go to the treasury
    // and 105,000 to the router, which sends them on to the wallet
    build(
      'sun-trx-hook-single-hop',
      6,
      [sunIn, approval, hop1Hooked],
      [internal(MANAGER, HOOK_1), internal(MANAGER, TREASURY, 375n), internal(MANAGER, ur, 105_000n), internal(ur, wallet, 105_000n)],
    ),
  ];
}

/**
 * OKX's router in place of the real routers: e41f064b (sale of 1 USDT on a SunSwap V3 pool,
 * called at the Universal Router) with the router's address replaced by OKX's everywhere it
 * appears (the call, the logs, the internal transactions); 7b6589b2 (a wallet's swap contract
 * forwarding 9,912,500 sun to SunSwap's smart router) with the smart router replaced by OKX's
 * previous router, which the route then passes through.
 */
export function constructedOkxRoutes(e41f064b: TronReplayTx, b7b6589b2: TronReplayTx): ConstructedTx[] {
  return [
    { name: 'okx-called', tx: reissue(rekey(e41f064b, UNIVERSAL_ROUTER, OKX_ROUTER), 11, 11, 'constructed:okx-called') },
    { name: 'okx-passed-through', tx: reissue(rekey(b7b6589b2, SMART_ROUTER, OKX_ROUTER_PREVIOUS), 12, 12, 'constructed:okx-passed-through') },
  ];
}

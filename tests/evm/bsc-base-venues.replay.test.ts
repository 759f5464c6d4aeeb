import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAbiParameters, toFunctionSelector } from 'viem';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { BUILT_IN_EVM_CHAINS, type EvmChainConfig } from '../../src/lib/chains/evm/registry.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { ERC20_TRANSFER_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v3-events.js';
import { INFINITY_BIN_SWAP_TOPIC, INFINITY_CL_SWAP_TOPIC, POOL_ID_TO_POOL_KEY_SELECTOR } from '../../src/lib/chains/evm/decode/infinity.js';
import { FOURMEME_PURCHASE_TOPIC, FOURMEME_SALE_TOPIC } from '../../src/lib/chains/evm/decode/fourmeme.js';
import { startEvmReplay, type EvmReplay } from '../support/evm-replay/server.js';
import { addrWord, topic, word } from '../support/evm-words.js';

/**
 * PancakeSwap Infinity (bsc), four.meme (bsc) and Aerodrome Slipstream (base) through the EVM
 * source, on the built-in chains' own venue addresses. None ships deployable bytecode and no
 * public repository holds their raw receipts, so these receipts are BUILT here with the venues'
 * real event shapes (infinity-core's ICLPoolManager/IBinPoolManager `Swap`, four.meme
 * TokenManager2's `TokenPurchase`/`TokenSale`, Uniswap V3's `Swap` that Slipstream pools emit)
 * and served by a JSON-RPC replay of our own over a real socket. Each expectation below is
 * worked out from the events as written, not from the decoder's output.
 */
const E18 = 10n ** 18n;
const WALLET = '0x8ba1f109551bd432803012645ac136ddd64dba72';
const ROUTER = '0xd9c500dff816a1da21a48a732d3498bf09dc9aeb';
const MEME = '0x9a2478c4036548864d96a97fbf93f6a3341fedac';
const USDT = '0x55d398326f99059ff775485246999027b3197955';
const FOUR = '0x7e4c8e0b5a1e9e2df2b1a1b7f3e5c7d9a4b6c8e1';
const FOUR_USD1 = '0x3f1b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d';
const USD1 = '0x8d0d000ee44948fc98c9b98a4fa4921476f08b0d';
const SPOOF = '0x00000000000000000000000000000000005900f1';
const AIRDROP = '0x1234567890abcdef1234567890abcdef12345678';

const bsc = { ...BUILT_IN_EVM_CHAINS.find((c) => c.slug === 'bsc')!, confirmation: 'latest' as const };
const base = { ...BUILT_IN_EVM_CHAINS.find((c) => c.slug === 'base')!, confirmation: 'latest' as const };
const infinity = bsc.dexes.find((d) => d.kind === 'infinity')!;
if (infinity.kind !== 'infinity') throw new Error('bsc has no Infinity venue');
const VAULT = infinity.vault;
const [CL_MANAGER, BIN_MANAGER] = infinity.poolManagers;
const fourDex = bsc.dexes.find((d) => d.kind === 'fourmeme')!;
const TOKEN_MANAGER = fourDex.kind === 'fourmeme' ? fourDex.tokenManager : '';
const SLIPSTREAM_FACTORY = '0x5e7bb104d84c7cb9b682aac2f3d509f5f406809a';
const SLIP_POOL = '0xb2cc224c1c9fee385f8ad6a55b4d94e92359dc59';
const USDC_BASE = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';

const id = (n: number) => '0x' + n.toString(16).padStart(64, '0');
const P_BNB_MEME_CL = id(0xc1);
const P_BNB_MEME_BIN = id(0xb1);
const P_BNB_USDT_CL = id(0xc2);

let logIndex = 0;
function log(address: string, topics: string[], data: string, block: number, tx: string, index: number): RpcLog {
  return {
    address,
    topics,
    data: '0x' + data,
    blockNumber: '0x' + block.toString(16),
    transactionHash: tx,
    transactionIndex: '0x' + index.toString(16),
    logIndex: '0x' + (logIndex++).toString(16),
  };
}
const transfer = (token: string, from: string, to: string, value: bigint, block: number, tx: string, index: number) =>
  log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], word(value), block, tx, index);
const clSwap = (pool: string, a0: bigint, a1: bigint, block: number, tx: string, index: number) =>
  log(CL_MANAGER, [INFINITY_CL_SWAP_TOPIC, pool, topic(ROUTER)], [a0, a1, 1n << 96n, 10n ** 20n, 0n, 2500n, 0n].map(word).join(''), block, tx, index);
const binSwap = (pool: string, a0: bigint, a1: bigint, block: number, tx: string, index: number) =>
  log(BIN_MANAGER, [INFINITY_BIN_SWAP_TOPIC, pool, topic(ROUTER)], [a0, a1, 8_388_608n, 2500n, 0n].map(word).join(''), block, tx, index);
/** TokenPurchase / TokenSale(token, account, price, amount, cost, fee, offers, funds): nothing indexed. */
const curve = (emitter: string, topic: string, token: string, amount: bigint, cost: bigint, fee: bigint, block: number, tx: string, index: number) =>
  log(
    emitter,
    [topic],
    [addrWord(token), addrWord(WALLET), word((cost * E18) / amount), word(amount), word(cost), word(fee), word(10n ** 26n), word(8n * E18)].join(''),
    block,
    tx,
    index,
  );

function receipt(block: number, index: number, logs: (tx: string) => RpcLog[]): RpcReceipt {
  const tx = '0x' + (block * 1000 + index).toString(16).padStart(64, '0');
  return {
    transactionHash: tx,
    transactionIndex: '0x' + index.toString(16),
    blockNumber: '0x' + block.toString(16),
    from: WALLET,
    to: ROUTER,
    status: '0x1',
    logs: logs(tx),
  };
}

const bscReceipts: RpcReceipt[] = [
  // Infinity CL: 1.5 BNB in (amount0 < 0: paid into the pool), 3,000 MEME out of the Vault.
  receipt(100, 3, (tx) => [clSwap(P_BNB_MEME_CL, -15n * (E18 / 10n), 3000n * E18, 100, tx, 3), transfer(MEME, VAULT, WALLET, 3000n * E18, 100, tx, 3)]),
  // Infinity Bin: 1,200 MEME into the Vault, 0.7 BNB out (amount0 > 0: paid to the swapper).
  receipt(101, 0, (tx) => [transfer(MEME, WALLET, VAULT, 1200n * E18, 101, tx, 0), binSwap(P_BNB_MEME_BIN, 7n * (E18 / 10n), -1200n * E18, 101, tx, 0)]),
  // Infinity CL, USDT -> BNB -> MEME inside the Vault: 2 BNB out of the first hop, into the second.
  receipt(102, 1, (tx) => [
    transfer(USDT, WALLET, VAULT, 1300n * E18, 102, tx, 1),
    clSwap(P_BNB_USDT_CL, 2n * E18, -1300n * E18, 102, tx, 1),
    clSwap(P_BNB_MEME_CL, -2n * E18, 4100n * E18, 102, tx, 1),
    transfer(MEME, VAULT, WALLET, 4100n * E18, 102, tx, 1),
  ]),
  // four.meme buy: cost 0.5 BNB for 1,000 FOUR, fee 0.005 BNB on top (paid with the call, no log).
  receipt(103, 2, (tx) => [
    curve(TOKEN_MANAGER, FOURMEME_PURCHASE_TOPIC, FOUR, 1000n * E18, E18 / 2n, E18 / 200n, 103, tx, 2),
    transfer(FOUR, TOKEN_MANAGER, WALLET, 1000n * E18, 103, tx, 2),
  ]),
  // four.meme sell: 400 FOUR back, cost 0.21 BNB (the wallet got 0.21 minus the 0.0021 fee).
  receipt(104, 0, (tx) => [
    transfer(FOUR, WALLET, TOKEN_MANAGER, 400n * E18, 104, tx, 0),
    curve(TOKEN_MANAGER, FOURMEME_SALE_TOPIC, FOUR, 400n * E18, (21n * E18) / 100n, (21n * E18) / 10_000n, 104, tx, 0),
  ]),
  // A contract that is not four.meme's manager emits TokenPurchase and sends the wallet a token: no trade.
  receipt(105, 0, (tx) => [
    curve(SPOOF, FOURMEME_PURCHASE_TOPIC, AIRDROP, 50n * E18, E18, 0n, 105, tx, 0),
    transfer(AIRDROP, SPOOF, WALLET, 50n * E18, 105, tx, 0),
  ]),
  // four.meme curve quoted in USD1: 25 USD1 cost + 0.25 fee from the wallet, 800 FOUR_USD1 back: no BNB leg.
  receipt(106, 4, (tx) => [
    transfer(USD1, WALLET, TOKEN_MANAGER, 2525n * (E18 / 100n), 106, tx, 4),
    curve(TOKEN_MANAGER, FOURMEME_PURCHASE_TOPIC, FOUR_USD1, 800n * E18, 25n * E18, E18 / 4n, 106, tx, 4),
    transfer(FOUR_USD1, TOKEN_MANAGER, WALLET, 800n * E18, 106, tx, 4),
  ]),
];

const baseReceipts: RpcReceipt[] = [
  // Slipstream pool: 0.3 WETH in, 900 USDC (6 decimals) out; the pool's factory() is Slipstream's.
  receipt(200, 5, (tx) => [
    transfer(base.wrappedNative!, WALLET, SLIP_POOL, (3n * E18) / 10n, 200, tx, 5),
    transfer(USDC_BASE, SLIP_POOL, WALLET, 900_000_000n, 200, tx, 5),
    log(
      SLIP_POOL,
      [UNISWAP_V3_SWAP_TOPIC, topic(ROUTER), topic(WALLET)],
      [-900_000_000n, (3n * E18) / 10n, 1n << 96n, 10n ** 18n, 0n].map(word).join(''),
      200,
      tx,
      5,
    ),
  ]),
];

const SYMBOL = toFunctionSelector('symbol()');
const DECIMALS = toFunctionSelector('decimals()');
const FACTORY = toFunctionSelector('factory()');
function tokenCalls(tokens: Array<[string, string, number]>): Array<[string, string]> {
  return tokens.flatMap(([a, sym, dec]) => [
    [`${a}:${SYMBOL}`, encodeAbiParameters([{ type: 'string' }], [sym])],
    [`${a}:${DECIMALS}`, '0x' + word(BigInt(dec))],
  ]);
}
const poolKey = (c0: string, c1: string, manager: string) =>
  '0x' + [addrWord(c0), addrWord(c1), addrWord('0x' + '0'.repeat(40)), addrWord(manager), word(2500n), word(10n << 16n)].join('');
const keyCall = (manager: string, pool: string, c1: string) =>
  [`${manager}:${POOL_ID_TO_POOL_KEY_SELECTOR}${pool.slice(2)}`, poolKey('0x' + '0'.repeat(40), c1, manager)] as [string, string];

let bscNode: EvmReplay;
let baseNode: EvmReplay;
beforeAll(async () => {
  bscNode = await startEvmReplay({
    chainId: 56,
    receipts: bscReceipts,
    timestamps: new Map(),
    calls: new Map([
      ...tokenCalls([
        [MEME, 'MEME', 18],
        [USDT, 'USDT', 18],
        [FOUR, 'FOUR', 18],
        [FOUR_USD1, 'FUSD', 18],
        [USD1, 'USD1', 18],
        [AIRDROP, 'AIR', 18],
      ]),
      keyCall(CL_MANAGER, P_BNB_MEME_CL, MEME),
      keyCall(BIN_MANAGER, P_BNB_MEME_BIN, MEME),
      keyCall(CL_MANAGER, P_BNB_USDT_CL, USDT),
    ]),
  });
  baseNode = await startEvmReplay({
    chainId: 8453,
    receipts: baseReceipts,
    timestamps: new Map(),
    calls: new Map([...tokenCalls([[USDC_BASE, 'USDC', 6]]), [`${SLIP_POOL}:${FACTORY}`, '0x' + addrWord(SLIPSTREAM_FACTORY)]]),
  });
});
afterAll(async () => {
  await bscNode?.close();
  await baseNode?.close();
});

async function walk(chain: EvmChainConfig, url: string): Promise<SourceTrade[]> {
  const source = createEvmSource({ chain, rpcUrl: url, tokens: createMemoryTokenCache(), discovery: 'logs' });
  const out: SourceTrade[] = [];
  for await (const b of source.history({ wallet: WALLET })) out.push(...b.trades);
  return out;
}

const pick = (t: SourceTrade) => [t.side, t.token, t.amount, t.amountSol, t.dex];

describe('bsc: PancakeSwap Infinity and four.meme (built receipts, real event shapes, JSON-RPC replay)', () => {
  it('decodes every trade as the events state, newest first, and nothing from a spoofed curve event', async () => {
    const trades = await walk(bsc, bscNode.url);
    expect(trades.map(pick)).toEqual([
      ['sell', 'USD1', '25.25', null, 'fourmeme'],
      ['buy', 'FUSD', '800', null, 'fourmeme'],
      ['sell', 'FOUR', '400', '0.21', 'fourmeme'],
      ['buy', 'FOUR', '1000', '0.5', 'fourmeme'],
      ['sell', 'USDT', '1300', '2', 'pancakeswap-infinity'],
      ['buy', 'MEME', '4100', '2', 'pancakeswap-infinity'],
      ['sell', 'MEME', '1200', '0.7', 'pancakeswap-infinity'],
      ['buy', 'MEME', '3000', '1.5', 'pancakeswap-infinity'],
    ]);
    // The three Infinity pools' keys came from their managers' poolIdToPoolKey.
    expect(bscNode.seen.eth_call).toBeGreaterThanOrEqual(3);
  });
});

describe('base: Aerodrome Slipstream (built receipt, Uniswap V3 Swap shape, JSON-RPC replay)', () => {
  it('names the pool by its factory', async () => {
    const trades = await walk(base, baseNode.url);
    expect(trades.map(pick)).toEqual([['buy', 'USDC', '900', '0.3', 'aerodrome-slipstream']]);
  });
});

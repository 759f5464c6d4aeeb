import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toChecksumAddress } from '../../src/lib/chains/evm/address.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { BUILT_IN_EVM_CHAINS } from '../../src/lib/chains/evm/registry.js';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import { ERC20_TRANSFER_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v3-events.js';
import type { SourceUnexplained } from '../../src/lib/core/activity.js';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import type { SourceTrade } from '../../src/lib/core/trade.js';
import { startEvmReplay, type EvmReplay } from '../support/evm-replay/server.js';
import { tokenCalls } from '../support/evm-replay/token-calls.js';
import { topic, word } from '../support/evm-words.js';

/**
 * Unexplained activity through the EVM source (issue 20), on receipts built by hand and served by
 * the JSON-RPC replay over a socket: a swap-shaped change no trade explains comes out beside the
 * batch's trades with the wallet's exact changes, a swap the decoder reads does not, nor a plain
 * transfer or a receipt-token deposit.
 */
const WALLET = '0x8ba1f109551bd432803012645ac136ddd64dba72';
const ROUTER = '0x1111111111111111111111111111111111111a01';
const TAKER = '0x2222222222222222222222222222222222222a02';
const PAYER = '0x3333333333333333333333333333333333333a03';
const POOL = '0x4444444444444444444444444444444444444a04';
const FRIEND = '0x5555555555555555555555555555555555555a05';
const VAULT = '0x6666666666666666666666666666666666666a06';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const TOK = '0x7777777777777777777777777777777777777a07';
const ZERO = '0x0000000000000000000000000000000000000000';
const E18 = 10n ** 18n;
const eth = { ...BUILT_IN_EVM_CHAINS.find((c) => c.slug === 'eth')!, confirmation: 'latest' as const };

let logIndex = 0;
const log = (address: string, topics: string[], data: string, block: number, tx: string): RpcLog => ({
  address,
  topics,
  data: '0x' + data,
  blockNumber: '0x' + block.toString(16),
  transactionHash: tx,
  transactionIndex: '0x0',
  logIndex: '0x' + (logIndex++).toString(16),
});
const transfer = (token: string, from: string, to: string, v: bigint) => (block: number, tx: string) =>
  log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], word(v), block, tx);
const hash = (block: number) => '0x' + block.toString(16).padStart(64, '0');
function receipt(block: number, to: string, logs: Array<(block: number, tx: string) => RpcLog>): RpcReceipt {
  const tx = hash(block);
  return {
    transactionHash: tx,
    transactionIndex: '0x0',
    blockNumber: '0x' + block.toString(16),
    from: WALLET,
    to,
    status: '0x1',
    logs: logs.map((l) => l(block, tx)),
  };
}

const receipts: RpcReceipt[] = [
  // 100: 250 USDC to TAKER, 3 TOK from PAYER: two accounts of one unknown venue, no event. No
  // account both took and gave, so no trade; the wallet gave USDC and got TOK: unexplained.
  receipt(100, ROUTER, [transfer(USDC, WALLET, TAKER, 250_000_000n), transfer(TOK, PAYER, WALLET, 3n * E18)]),
  // 101: a V3 swap the decoder reads: 100 USDC into the pool, 1.5 TOK out. Explained.
  receipt(101, POOL, [
    transfer(USDC, WALLET, POOL, 100_000_000n),
    transfer(TOK, POOL, WALLET, (3n * E18) / 2n),
    (block, tx) =>
      log(POOL, [UNISWAP_V3_SWAP_TOPIC, topic(WALLET), topic(WALLET)], [100_000_000n, -(3n * E18) / 2n, 1n << 96n, E18, 0n].map(word).join(''), block, tx),
  ]),
  // 102: 40 USDC sent to a friend: one-sided, not listed.
  receipt(102, USDC, [transfer(USDC, WALLET, FRIEND, 40_000_000n)]),
  // 103: 60 USDC deposited into a vault that mints its shares to the wallet: a known non-trade.
  receipt(103, VAULT, [transfer(USDC, WALLET, VAULT, 60_000_000n), transfer(VAULT, ZERO, WALLET, 59n * E18)]),
];

let node: EvmReplay;
beforeAll(async () => {
  node = await startEvmReplay({
    chainId: 1,
    receipts,
    calls: tokenCalls(
      new Map([
        [USDC, { symbol: 'USDC', decimals: 6 }],
        [TOK, { symbol: 'TOK', decimals: 18 }],
        [VAULT, { symbol: 'vUSDC', decimals: 18 }],
      ]),
    ),
  });
});
afterAll(async () => node?.close());

describe('unexplained activity from the EVM source', () => {
  it('lists the split-venue swap with the exact changes beside the batch trades; the read swap, the transfer and the deposit are not listed', async () => {
    const source = createEvmSource({ chain: eth, rpcUrl: node.url, tokens: createMemoryTokenCache(), discovery: 'logs' });
    const trades: SourceTrade[] = [];
    const unexplained: SourceUnexplained[] = [];
    for await (const b of source.history({ wallet: WALLET })) {
      trades.push(...b.trades);
      unexplained.push(...(b.unexplained ?? []));
    }
    expect(trades.map((t) => [t.signature, t.side, t.token, t.amount])).toEqual([
      [hash(101), 'sell', 'USDC', '100'],
      [hash(101), 'buy', 'TOK', '1.5'],
    ]);
    expect(unexplained).toEqual([
      {
        signature: hash(100),
        blockTime: new Date((1_700_000_000 + 100) * 1000).toISOString().replace('.000Z', 'Z'),
        position: '000000000100.000000',
        changes: [
          { token: 'USDC', tokenMint: toChecksumAddress(USDC), amount: '-250' },
          { token: 'TOK', tokenMint: toChecksumAddress(TOK), amount: '3' },
        ],
        programs: [toChecksumAddress(ROUTER), toChecksumAddress(USDC), toChecksumAddress(TOK)],
      },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeReceipt } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { oneFacePerLedger } from '../../src/lib/chains/evm/decode/ledger-faces.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { topic, word } from '../support/evm-words.js';

/**
 * One token ledger behind two contracts (decode/ledger-faces.ts), on receipts built by hand after
 * the shape of Monerium's EURe on Gnosis: every movement logged by the v2 face, then by the v1
 * face, same sender, recipient and amount.
 */
const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const WALLET = A(0xaaa);
const USDC = A(0x111);
const V2_FACE = A(0x420);
const V1_FACE = A(0xcb4);
const OTHER = A(0x333);
const POOL = A(0x501);
const ROUTER = A(0x603);
const E18 = 10n ** 18n;

const log = (address: string, topics: string[], data = '0x'): RpcLog => ({
  address,
  topics,
  data,
  blockNumber: '0x1',
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
});
const transfer = (token: string, from: string, to: string, v: bigint) => log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], '0x' + word(v));
const twin = (from: string, to: string, v: bigint) => [transfer(V2_FACE, from, to, v), transfer(V1_FACE, from, to, v)];
const v2swap = (pool: string) => log(pool, [UNISWAP_V2_SWAP_TOPIC, topic(ROUTER), topic(ROUTER)], '0x' + word(0n).repeat(4));
const receipt = (logs: RpcLog[]): RpcReceipt => ({
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
  blockNumber: '0x1',
  from: WALLET,
  to: ROUTER,
  status: '0x1',
  logs,
});
const chain = { wrappedNative: null, entryPoints: [] };

describe('a token ledger with two contract faces', () => {
  // 1000 USDC wallet -> router -> pool; the pool pays 900 EURe to the router, which pays the wallet.
  const swap = [
    transfer(USDC, WALLET, ROUTER, 1000n),
    transfer(USDC, ROUTER, POOL, 1000n),
    ...twin(POOL, ROUTER, 900n * E18),
    v2swap(POOL),
    ...twin(ROUTER, WALLET, 900n * E18),
  ];

  it('every movement logged by both faces: one buy of 900 on the face that logs second, not two buys', () => {
    const trades = decodeReceipt(receipt(swap), WALLET, chain);
    expect(trades.map((t) => [t.side, t.token, t.amountRaw])).toEqual([
      ['sell', USDC, 1000n],
      ['buy', V1_FACE, 900n * E18],
    ]);
  });

  it("keeps the first face's logs when it also logs a movement the other does not (two tokens, not one ledger)", () => {
    const r = receipt([...swap, transfer(V2_FACE, WALLET, OTHER, 5n)]);
    expect(oneFacePerLedger(r)).toBe(r);
  });

  it('keeps both when the pairs are not adjacent, or differ in amount or recipient', () => {
    const apart = receipt([transfer(V2_FACE, POOL, WALLET, 7n), transfer(USDC, WALLET, POOL, 1n), transfer(V1_FACE, POOL, WALLET, 7n)]);
    const amount = receipt([transfer(V2_FACE, POOL, WALLET, 7n), transfer(V1_FACE, POOL, WALLET, 8n)]);
    const recipient = receipt([transfer(V2_FACE, POOL, WALLET, 7n), transfer(V1_FACE, POOL, OTHER, 7n)]);
    for (const r of [apart, amount, recipient]) expect(oneFacePerLedger(r)).toBe(r);
  });

  it('drops only the first face of each pair, whatever else the receipt logs', () => {
    const out = oneFacePerLedger(receipt(swap));
    expect(out.logs.map((l) => l.address)).toEqual([USDC, USDC, V1_FACE, POOL, V1_FACE]);
  });
});

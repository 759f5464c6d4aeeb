import { describe, expect, it } from 'vitest';
import { decodeReceipt, SAFE_EXECUTION_FAILURE_TOPIC, SAFE_EXECUTION_SUCCESS_TOPIC } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { COW_NATIVE, COW_TRADE_TOPIC, UNISWAPX_FILL_TOPIC } from '../../src/lib/chains/evm/decode/settlements.js';
import type { EvmDexConfig } from '../../src/lib/chains/evm/registry.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { addrWord, topic, word } from '../support/evm-words.js';

/**
 * Safes, EIP-7702 accounts and settlements (CoW, UniswapX) on receipts built with the contracts'
 * real event shapes (Safe 1.4.1's artifact, GPv2Settlement's and UniswapX reactors' published
 * ABIs). The Safe and the EIP-7702 account also trade on anvil through the real contracts
 * (source.accounts.anvil.test.ts); no CoW or UniswapX settlement runs here, so these receipts are
 * constructed, and expected figures are worked out by hand from the logs written here.
 */
const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const WALLET = A(0xaaa);
const OTHER_SAFE = A(0xbbb);
const OWNER = A(0x0e0);
const RELAYER = A(0x7e1);
const WETH = A(0xeee);
const TOKEN = A(0x111);
const TOKEN2 = A(0x222);
const PAIR = A(0x501);
const PAIR2 = A(0x502);
const COW = A(0xc0c);
const REACTOR = A(0x0f1);
const FILLER = A(0xf11);
const RELAYER_VAULT = A(0xa11);
const dexes: EvmDexConfig[] = [
  { name: 'cow', kind: 'cow', settlement: COW },
  { name: 'uniswapx', kind: 'uniswapx', settlement: REACTOR },
];
const chain = { wrappedNative: WETH, entryPoints: [], dexes };

function log(address: string, topics: string[], data = '0x'): RpcLog {
  return { address, topics, data, blockNumber: '0x1', transactionHash: '0x' + '1'.repeat(64), transactionIndex: '0x0' };
}
const transfer = (token: string, from: string, to: string, v: bigint) => log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], '0x' + word(v));
const v2swap = (pair: string, in0: bigint, in1: bigint, out0: bigint, out1: bigint, to: string) =>
  log(pair, [UNISWAP_V2_SWAP_TOPIC, topic(A(0x600)), topic(to)], '0x' + word(in0) + word(in1) + word(out0) + word(out1));
const safeSuccess = (safe: string) => log(safe, [SAFE_EXECUTION_SUCCESS_TOPIC, '0x' + '5a'.repeat(32)], '0x' + word(0n));
const safeFailure = (safe: string) => log(safe, [SAFE_EXECUTION_FAILURE_TOPIC, '0x' + '5b'.repeat(32)], '0x' + word(0n));
const receipt = (logs: RpcLog[], from: string, to: string | null = A(0x600)): RpcReceipt => ({
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
  blockNumber: '0x1',
  from,
  to,
  status: '0x1',
  logs,
});
/** A WETH -> TOKEN buy through PAIR (WETH token0) paying `to`. */
const buyLogs = (to: string, weth: bigint, tokens: bigint) => [
  transfer(WETH, to, PAIR, weth),
  transfer(TOKEN, PAIR, to, tokens),
  v2swap(PAIR, weth, 0n, 0n, tokens, to),
];
const cowTrade = (owner: string, sell: string, buy: string, sellAmount: bigint, buyAmount: bigint, fee: bigint) =>
  log(
    COW,
    [COW_TRADE_TOPIC, topic(owner)],
    '0x' + addrWord(sell) + addrWord(buy) + word(sellAmount) + word(buyAmount) + word(fee) + word(0xe0n) + word(56n) + 'ab'.repeat(56) + '00'.repeat(8),
  );

describe('a Safe is the trader of the swaps it executes', () => {
  it('its own execution, sent by an owner: 2 WETH for 500 TOKEN', () => {
    const r = receipt([...buyLogs(WALLET, 2n * 10n ** 18n, 500n), safeSuccess(WALLET)], OWNER, WALLET);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 500n, nativeRaw: 2n * 10n ** 18n, pool: PAIR, poolKind: 'v2' }]);
  });

  it('only the logs of its own execution when a batch executes several Safes', () => {
    // another Safe's buy of 7 TOKEN for 1 WETH first, then the wallet's of 500 for 2, then a failed execution
    const r = receipt(
      [...buyLogs(OTHER_SAFE, 10n ** 18n, 7n), safeSuccess(OTHER_SAFE), ...buyLogs(WALLET, 2n * 10n ** 18n, 500n), safeSuccess(WALLET), safeFailure(A(0xccc))],
      RELAYER,
      A(0x9999),
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 500n, nativeRaw: 2n * 10n ** 18n, pool: PAIR, poolKind: 'v2' }]);
    expect(decodeReceipt(r, OTHER_SAFE, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 7n, nativeRaw: 10n ** 18n, pool: PAIR, poolKind: 'v2' }]);
  });

  it('not when the ExecutionSuccess is another contract’s, even if the swap paid the wallet', () => {
    const r = receipt([...buyLogs(WALLET, 2n * 10n ** 18n, 500n), safeSuccess(OTHER_SAFE)], OWNER, OTHER_SAFE);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });
});

describe('an EIP-7702 account is the trader of a relayer’s call at its own address', () => {
  const r = receipt(buyLogs(WALLET, 3n * 10n ** 18n, 900n), RELAYER, WALLET);
  it('when its code is a delegation', () => {
    expect(decodeReceipt(r, WALLET, chain, new Map(), { delegated: true })).toEqual([
      { side: 'buy', token: TOKEN, amountRaw: 900n, nativeRaw: 3n * 10n ** 18n, pool: PAIR, poolKind: 'v2' },
    ]);
  });
  it('and nothing else: not an account without a delegation, not a call to someone else', () => {
    expect(decodeReceipt(r, WALLET, chain, new Map(), { delegated: false })).toEqual([]);
    expect(decodeReceipt({ ...r, to: A(0x600) }, WALLET, chain, new Map(), { delegated: true })).toEqual([]);
  });
});

describe('CoW Protocol settlements for the wallet', () => {
  it('a sale for ETH: the token that left the wallet (a 1% transfer tax included) for the executed buy amount', () => {
    // Trade: sell 1,000 TOKEN (+ fee 10) for 0.4 ETH; the tax token moved 1,010 from the wallet (1,000 reached the settlement, 10 burnt... as logged)
    const r = receipt(
      [transfer(TOKEN, WALLET, COW, 1000n), transfer(TOKEN, WALLET, A(0), 10n), cowTrade(WALLET, TOKEN, COW_NATIVE, 1000n, 4n * 10n ** 17n, 0n)],
      A(0x5017),
      COW,
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'sell', token: TOKEN, amountRaw: 1010n, nativeRaw: 4n * 10n ** 17n, pool: COW, poolKind: 'cow' }]);
  });

  it('a purchase with WETH at the executed sell amount, CoW’s fee apart', () => {
    const r = receipt(
      [transfer(WETH, WALLET, COW, 10n ** 18n + 5n), transfer(TOKEN, COW, WALLET, 777n), cowTrade(WALLET, WETH, TOKEN, 10n ** 18n, 777n, 5n)],
      A(0x5017),
      COW,
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 777n, nativeRaw: 10n ** 18n, pool: COW, poolKind: 'cow' }]);
  });

  it('token for token: a sell and a buy with no native figure; other owners’ trades and unconfigured contracts give nothing', () => {
    const logs = [
      transfer(TOKEN, WALLET, RELAYER_VAULT, 50n),
      transfer(TOKEN2, COW, WALLET, 60n),
      cowTrade(WALLET, TOKEN, TOKEN2, 50n, 60n, 0n),
      cowTrade(A(0xdead), WETH, TOKEN, 10n, 20n, 0n),
    ];
    expect(decodeReceipt(receipt(logs, A(0x5017), COW), WALLET, chain)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 50n, nativeRaw: null, pool: COW, poolKind: 'cow' },
      { side: 'buy', token: TOKEN2, amountRaw: 60n, nativeRaw: null, pool: COW, poolKind: 'cow' },
    ]);
    const fake = logs.map((l) => (l.address === COW ? { ...l, address: A(0xfa4e) } : l));
    expect(decodeReceipt(receipt(fake, A(0x5017), A(0xfa4e)), WALLET, chain)).toEqual([]);
  });

  it('the solver’s own AMM swaps in the settlement are not the wallet’s', () => {
    const logs = [
      transfer(WETH, WALLET, COW, 10n ** 18n),
      // the solver buys TOKEN for the settlement on a pair: not the wallet's route
      transfer(WETH, COW, PAIR2, 10n ** 18n),
      transfer(TOKEN, PAIR2, COW, 800n),
      v2swap(PAIR2, 10n ** 18n, 0n, 0n, 800n, COW),
      transfer(TOKEN, COW, WALLET, 777n),
      cowTrade(WALLET, WETH, TOKEN, 10n ** 18n, 777n, 0n),
    ];
    expect(decodeReceipt(receipt(logs, A(0x5017), COW), WALLET, chain)).toEqual([
      { side: 'buy', token: TOKEN, amountRaw: 777n, nativeRaw: 10n ** 18n, pool: COW, poolKind: 'cow' },
    ]);
  });
});

describe('UniswapX fills for the wallet', () => {
  const fill = (swapper: string) => log(REACTOR, [UNISWAPX_FILL_TOPIC, '0x' + '0d'.repeat(32), topic(FILLER), topic(swapper)], '0x' + word(1n));
  it('sells TOKEN for WETH: the wallet’s own flows, WETH the native side', () => {
    const r = receipt([transfer(TOKEN, WALLET, FILLER, 2_000n), transfer(WETH, FILLER, WALLET, 6n * 10n ** 17n), fill(WALLET)], FILLER, REACTOR);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 2_000n, nativeRaw: 6n * 10n ** 17n, pool: REACTOR, poolKind: 'uniswapx' },
    ]);
  });
  it('a sale paid in native ETH has no logged native figure; another swapper’s fill is not the wallet’s', () => {
    const r = receipt([transfer(TOKEN, WALLET, FILLER, 2_000n), fill(WALLET)], FILLER, REACTOR);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'sell', token: TOKEN, amountRaw: 2_000n, nativeRaw: null, pool: REACTOR, poolKind: 'uniswapx' }]);
    const other = receipt([transfer(TOKEN, A(0x1234), FILLER, 2_000n), transfer(TOKEN2, FILLER, WALLET, 5n), fill(A(0x1234))], FILLER, REACTOR);
    expect(decodeReceipt(other, WALLET, chain)).toEqual([]);
  });
});

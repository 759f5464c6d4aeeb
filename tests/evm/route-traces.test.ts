import { describe, expect, it } from 'vitest';
import { decodeReceipt, readReceipt, type DecodedTrade } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { WETH_DEPOSIT_TOPIC, WETH_WITHDRAWAL_TOPIC, type InternalTransfer } from '../../src/lib/chains/evm/decode/movements.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { internalTransfers } from '../../src/lib/chains/evm/enrich/trace-native.js';
import type { EvmAggregatorConfig } from '../../src/lib/chains/evm/registry.js';
import type { CallFrame } from '../../src/lib/chains/evm/rpc-methods.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v3-events.js';
import { topic, word } from '../support/evm-words.js';

/**
 * When a transaction the wallet sent needs a call trace (decode/open-route.ts), and what the
 * trace's internal value transfers then give, on receipts built by hand. Each rule is shown
 * open (the trace asked for, and the figures with and without it, worked out from the movements
 * written in the test) and closed on the shapes that look alike but whose logs settle the route
 * (no trace asked, figures unchanged).
 */
const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const WALLET = A(0xaaa);
const WETH = A(0xeee);
const USDC = A(0x111);
const DAI = A(0x222);
const TOKEN = A(0x333);
const PROXY = A(0x600);
const NETWORK = A(0x601);
const RESERVE = A(0x602);
const ROUTER = A(0x603);
const EXECUTOR = A(0x604);
const MAKER = A(0x605);
const POOL = A(0x501);
const FRONT_END = A(0x606);
const SPENDER = A(0x607);
const FEE = A(0xfee);
const BRIDGE = A(0xb1d);
const PAYEE = A(0x9a1);
const ONEINCH = A(0x1171);
const E18 = 10n ** 18n;

const aggregators: EvmAggregatorConfig[] = [{ name: '1inch', address: ONEINCH }];
const chain = { wrappedNative: WETH, entryPoints: [], aggregators };

function log(address: string, topics: string[], data = '0x'): RpcLog {
  return { address, topics, data, blockNumber: '0x1', transactionHash: '0x' + '1'.repeat(64), transactionIndex: '0x0' };
}
const transfer = (token: string, from: string, to: string, v: bigint) => log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], '0x' + word(v));
const v2swap = (pool: string) => log(pool, [UNISWAP_V2_SWAP_TOPIC, topic(ROUTER), topic(ROUTER)], '0x' + word(0n).repeat(4));
const v3swap = (pool: string, to: string) => log(pool, [UNISWAP_V3_SWAP_TOPIC, topic(to), topic(to)], '0x' + word(0n).repeat(5));
const withdrawal = (who: string, v: bigint) => log(WETH, [WETH_WITHDRAWAL_TOPIC, topic(who)], '0x' + word(v));
const deposit = (who: string, v: bigint) => log(WETH, [WETH_DEPOSIT_TOPIC, topic(who)], '0x' + word(v));
const receipt = (logs: RpcLog[], to: string, from = WALLET): RpcReceipt => ({
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
  blockNumber: '0x1',
  from,
  to,
  status: '0x1',
  logs,
});
/** Why the source would trace the receipt, as it reads it before any trace. */
const routeLeftOpen = (r: RpcReceipt, wallet: string, c: typeof chain) => readReceipt(r, wallet, c).open;
const brief = (t: DecodedTrade[]) => t.map((x) => [x.side, x.token, x.amountRaw, x.nativeRaw, x.dex ?? x.poolKind]);
const moved = (from: string, to: string, value: bigint): InternalTransfer => ({ from, to, value });
const traced = (internal: InternalTransfer[], to: string, value = 0n) => ({ internal, transaction: { to, value } });

describe('output-unseen: a sold token reached an account that gave nothing visible back', () => {
  // 45 USDC (6 decimals) wallet -> the network contract -> a reserve that pays 0.1875 ETH by internal calls (reserve -> network -> wallet).
  const kyberShaped = receipt([transfer(USDC, WALLET, NETWORK, 45_000_000n), transfer(USDC, NETWORK, RESERVE, 45_000_000n)], PROXY);
  const paid = [moved(RESERVE, NETWORK, 1875n * 10n ** 14n), moved(NETWORK, WALLET, 1875n * 10n ** 14n)];

  it('asks for a trace; without one there is no sale, with it a sale of 45 USDC for 0.1875 ETH to the reserve', () => {
    expect(routeLeftOpen(kyberShaped, WALLET, chain)).toBe('output-unseen');
    expect(decodeReceipt(kyberShaped, WALLET, chain)).toEqual([]);
    // The reserve took USDC and gave ETH: a venue by its flows, no slug of its own.
    expect(brief(decodeReceipt(kyberShaped, WALLET, chain, new Map(), traced(paid, PROXY)))).toEqual([
      ['sell', USDC, 45_000_000n, 1875n * 10n ** 14n, 'unknown'],
    ]);
  });

  it('not for the account the wallet called nor its first addressee (a bridge deposit, a plain transfer, a payee), nor for a fee', () => {
    // The wallet calls the bridge, which takes the USDC.
    expect(routeLeftOpen(receipt([transfer(USDC, WALLET, BRIDGE, 45_000_000n)], BRIDGE), WALLET, chain)).toBeNull();
    // A router pulls the USDC straight to a payee.
    expect(routeLeftOpen(receipt([transfer(USDC, WALLET, PAYEE, 45_000_000n)], ROUTER), WALLET, chain)).toBeNull();
    // A plain transfer: the wallet called the token.
    expect(routeLeftOpen(receipt([transfer(USDC, WALLET, PAYEE, 45_000_000n)], USDC), WALLET, chain)).toBeNull();
    // A router passes 0.875% to its fee account (0.39375 of 45) and the rest through a pool for
    // 0.2 WETH it unwraps and sends on: the fee account keeps less than half of what went through.
    const withFee = receipt(
      [
        transfer(USDC, WALLET, ROUTER, 45_000_000n),
        transfer(USDC, ROUTER, FEE, 393_750n),
        transfer(USDC, ROUTER, POOL, 44_606_250n),
        transfer(WETH, POOL, ROUTER, 2n * 10n ** 17n),
        v2swap(POOL),
        withdrawal(ROUTER, 2n * 10n ** 17n),
      ],
      ROUTER,
    );
    expect(routeLeftOpen(withFee, WALLET, chain)).toBeNull();
    expect(brief(decodeReceipt(withFee, WALLET, chain))).toEqual([['sell', USDC, 45_000_000n, 2n * 10n ** 17n, 'v2']]);
  });

  it('a payee of a swap deeper in the route is open too (its other side could be native), and the trace shows it paid nothing: no trade', () => {
    // 45 USDC through the router to a V3 pool, whose 1000 DAI go to a payee that gives nothing back.
    const payee = receipt(
      [transfer(USDC, WALLET, ROUTER, 45_000_000n), transfer(USDC, ROUTER, POOL, 45_000_000n), transfer(DAI, POOL, PAYEE, 1000n * E18), v3swap(POOL, PAYEE)],
      ROUTER,
    );
    expect(routeLeftOpen(payee, WALLET, chain)).toBe('output-unseen');
    expect(decodeReceipt(payee, WALLET, chain, new Map(), traced([], ROUTER))).toEqual([]);
  });
});

describe('input-unseen: a bought token came up the route from an account that took nothing visible', () => {
  // 1 ETH (the transaction's value) to the router; its executor pays 0.4 ETH by internal calls to
  // a maker that gives 800 DAI to a V2 pool, which gives 500 TOKEN through the router to the wallet.
  const makerShaped = receipt(
    [transfer(DAI, MAKER, POOL, 800n * E18), transfer(TOKEN, POOL, ROUTER, 500n * E18), v2swap(POOL), transfer(TOKEN, ROUTER, WALLET, 500n * E18)],
    ROUTER,
  );
  const internal = [moved(ROUTER, EXECUTOR, 4n * 10n ** 17n), moved(EXECUTOR, MAKER, 4n * 10n ** 17n)];

  it('asks for a trace; without one the buy has no native figure, with it 0.4 ETH (what the maker, its first venue, took)', () => {
    expect(routeLeftOpen(makerShaped, WALLET, chain)).toBe('input-unseen');
    expect(brief(decodeReceipt(makerShaped, WALLET, chain))).toEqual([['buy', TOKEN, 500n * E18, null, 'v2']]);
    expect(brief(decodeReceipt(makerShaped, WALLET, chain, new Map(), traced(internal, ROUTER, 4n * 10n ** 17n)))).toEqual([
      ['buy', TOKEN, 500n * E18, 4n * 10n ** 17n, 'v2'],
    ]);
  });

  it('not for a claim paid by the contract the wallet called, nor for tokens a pool pays straight to the wallet (a liquidity removal)', () => {
    expect(routeLeftOpen(receipt([transfer(TOKEN, MAKER, WALLET, 5n * E18)], MAKER), WALLET, chain)).toBeNull();
    expect(routeLeftOpen(receipt([transfer(TOKEN, POOL, WALLET, 5n * E18), transfer(DAI, POOL, WALLET, 7n * E18)], ROUTER), WALLET, chain)).toBeNull();
  });

  it('not when the route is funded in the native coin the called contract wrapped (the transaction value): the pool’s WETH is the figure', () => {
    const wrapped = receipt([deposit(ROUTER, E18), transfer(WETH, ROUTER, POOL, E18), transfer(TOKEN, POOL, WALLET, 700n * E18), v2swap(POOL)], ROUTER);
    expect(routeLeftOpen(wrapped, WALLET, chain)).toBeNull();
    expect(brief(decodeReceipt(wrapped, WALLET, chain))).toEqual([['buy', TOKEN, 700n * E18, E18, 'v2']]);
  });
});

describe('native-path-unseen: the native coin left or entered the route at an account the wallet did not call', () => {
  // A front end (not an aggregator): 100 TOKEN wallet -> spender -> executor -> V3 pool, 0.5 WETH back to
  // the executor, which unwraps it; the ETH goes executor -> 1inch's router -> spender -> wallet by internal calls.
  const frontEnd = receipt(
    [
      transfer(TOKEN, WALLET, SPENDER, 100n * E18),
      transfer(TOKEN, SPENDER, EXECUTOR, 100n * E18),
      transfer(TOKEN, EXECUTOR, POOL, 100n * E18),
      transfer(WETH, POOL, EXECUTOR, 5n * 10n ** 17n),
      v3swap(POOL, EXECUTOR),
      withdrawal(EXECUTOR, 5n * 10n ** 17n),
    ],
    FRONT_END,
  );
  const half = 5n * 10n ** 17n;

  it('asks for a trace while no aggregator names the trade; with it the ETH passed 1inch, so the sale is 1inch’s, for the same 0.5 ETH', () => {
    expect(routeLeftOpen(frontEnd, WALLET, chain)).toBe('native-path-unseen');
    expect(brief(decodeReceipt(frontEnd, WALLET, chain))).toEqual([['sell', TOKEN, 100n * E18, half, 'v3']]);
    const internal = [moved(EXECUTOR, ONEINCH, half), moved(ONEINCH, SPENDER, half), moved(SPENDER, WALLET, half)];
    expect(brief(decodeReceipt(frontEnd, WALLET, chain, new Map(), traced(internal, FRONT_END)))).toEqual([['sell', TOKEN, 100n * E18, half, '1inch']]);
  });

  it('not when the contract the wallet called unwraps (and pays the wallet), nor when an aggregator in the logs already names the trade', () => {
    const routerUnwraps = receipt(
      [transfer(TOKEN, WALLET, POOL, 100n * E18), transfer(WETH, POOL, ROUTER, half), v3swap(POOL, ROUTER), withdrawal(ROUTER, half)],
      ROUTER,
    );
    expect(routeLeftOpen(routerUnwraps, WALLET, chain)).toBeNull();
    const viaOneInch = receipt(
      [
        transfer(TOKEN, WALLET, ONEINCH, 100n * E18),
        transfer(TOKEN, ONEINCH, EXECUTOR, 100n * E18),
        transfer(TOKEN, EXECUTOR, POOL, 100n * E18),
        transfer(WETH, POOL, EXECUTOR, half),
        v3swap(POOL, EXECUTOR),
        withdrawal(EXECUTOR, half),
      ],
      FRONT_END,
    );
    expect(routeLeftOpen(viaOneInch, WALLET, chain)).toBeNull();
    expect(brief(decodeReceipt(viaOneInch, WALLET, chain))).toEqual([['sell', TOKEN, 100n * E18, half, '1inch']]);
  });

  it('a wrap by an inner account is the same: the ETH reached it by an internal call', () => {
    // 1 ETH value to the front end, forwarded unseen to the executor, which wraps it into the pool for 300 TOKEN.
    const buy = receipt(
      [deposit(EXECUTOR, E18), transfer(WETH, EXECUTOR, POOL, E18), transfer(TOKEN, POOL, WALLET, 300n * E18), v3swap(POOL, WALLET)],
      FRONT_END,
    );
    expect(routeLeftOpen(buy, WALLET, chain)).toBe('native-path-unseen');
  });

  it('only the wallet’s own transactions: one it did not send is never traced', () => {
    expect(routeLeftOpen({ ...frontEnd, from: A(0xbbb) }, WALLET, chain)).toBeNull();
  });
});

describe('internalTransfers: what a call trace moved by internal calls', () => {
  it('every value-moving frame below the top one, in call order; not a reverted frame or what it called, not a DELEGATECALL, not zero value', () => {
    const v = (n: bigint) => '0x' + n.toString(16);
    const trace: CallFrame = {
      type: 'CALL',
      from: WALLET,
      to: ROUTER,
      value: v(E18),
      calls: [
        { type: 'CALL', from: ROUTER, to: EXECUTOR, value: v(E18), calls: [{ type: 'CALL', from: EXECUTOR, to: MAKER, value: v(4n * 10n ** 17n) }] },
        { type: 'DELEGATECALL', from: ROUTER, to: A(0xde1), value: v(E18) },
        { type: 'CALL', from: ROUTER, to: POOL, value: v(3n), error: 'execution reverted', calls: [{ type: 'CALL', from: POOL, to: PAYEE, value: v(2n) }] },
        { type: 'STATICCALL', from: ROUTER, to: POOL },
        { type: 'CALL', from: ROUTER, to: POOL, value: '0x0' },
        { type: 'SELFDESTRUCT', from: A(0xdead), to: WALLET, value: v(7n) },
      ],
    };
    expect(internalTransfers(trace)).toEqual([moved(ROUTER, EXECUTOR, E18), moved(EXECUTOR, MAKER, 4n * 10n ** 17n), moved(A(0xdead), WALLET, 7n)]);
  });
});

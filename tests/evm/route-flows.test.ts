import { describe, expect, it } from 'vitest';
import { decodeReceipt, type DecodedTrade } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { CURVE_TOKEN_EXCHANGE_TOPIC } from '../../src/lib/chains/evm/decode/curve.js';
import { WETH_DEPOSIT_TOPIC, WETH_WITHDRAWAL_TOPIC } from '../../src/lib/chains/evm/decode/movements.js';
import type { RpcLog, RpcReceipt } from '../../src/lib/chains/evm/decode/rpc-types.js';
import { UNISWAP_V1_ETH_PURCHASE_TOPIC } from '../../src/lib/chains/evm/decode/uniswap-v1.js';
import type { EvmAggregatorConfig, EvmNamedContract } from '../../src/lib/chains/evm/registry.js';
import { ERC20_TRANSFER_TOPIC, UNISWAP_V2_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';
import { UNISWAP_V3_SWAP_TOPIC } from '../../src/lib/chains/shared/uniswap-v3-events.js';
import { topic, word } from '../support/evm-words.js';

/**
 * The route engine's rules (ROUTES.md, decisions.md "Real routes on EVM") on receipts built by hand
 * with the real event shapes. Every figure expected below is worked out from the logs written
 * in the same test: who took what, who gave what, which account is a venue, which a pass-through.
 */
const A = (n: number) => '0x' + n.toString(16).padStart(40, '0');
const WALLET = A(0xaaa);
const WETH = A(0xeee);
const TOKEN = A(0x111);
const TOKEN2 = A(0x222);
const STABLE = A(0x333);
const POOL = A(0x501);
const POOL2 = A(0x502);
const ROUTER = A(0x600);
const EXECUTOR = A(0x601);
const FRONT_END = A(0x602);
const FEE = A(0xfee);
const MAKER = A(0x3a3);
const ONEINCH = A(0x1171);
const FILLS = A(0xf111);
const ZERO = A(0);
const E18 = 10n ** 18n;

const aggregators: EvmAggregatorConfig[] = [{ name: '1inch', address: ONEINCH }];
const namedContracts: EvmNamedContract[] = [{ name: 'airswap', address: FILLS, role: 'fills' }];
const chain = { wrappedNative: WETH, entryPoints: [], aggregators, namedContracts };

function log(address: string, topics: string[], data = '0x'): RpcLog {
  return { address, topics, data, blockNumber: '0x1', transactionHash: '0x' + '1'.repeat(64), transactionIndex: '0x0' };
}
const transfer = (token: string, from: string, to: string, v: bigint) => log(token, [ERC20_TRANSFER_TOPIC, topic(from), topic(to)], '0x' + word(v));
const v2swap = (pool: string) => log(pool, [UNISWAP_V2_SWAP_TOPIC, topic(ROUTER), topic(ROUTER)], '0x' + word(0n).repeat(4));
const v3swap = (pool: string, sender = ROUTER) => log(pool, [UNISWAP_V3_SWAP_TOPIC, topic(sender), topic(sender)], '0x' + word(0n).repeat(5));
const withdrawal = (who: string, v: bigint) => log(WETH, [WETH_WITHDRAWAL_TOPIC, topic(who)], '0x' + word(v));
const deposit = (who: string, v: bigint) => log(WETH, [WETH_DEPOSIT_TOPIC, topic(who)], '0x' + word(v));
const receipt = (logs: RpcLog[], to = ROUTER, from = WALLET): RpcReceipt => ({
  transactionHash: '0x' + '1'.repeat(64),
  transactionIndex: '0x0',
  blockNumber: '0x1',
  from,
  to,
  status: '0x1',
  logs,
});
const brief = (t: DecodedTrade[]) => t.map((x) => [x.side, x.token, x.amountRaw, x.nativeRaw, x.dex ?? x.poolKind]);

describe('pass-throughs at any depth', () => {
  it('pool -> executor -> router -> front end -> wallet is a buy of what reached the wallet, for the WETH the pool took', () => {
    // 2 WETH from the executor into the V3 pool; 900 TOKEN out through three pass-throughs, the front end keeping 9.
    const r = receipt(
      [
        transfer(WETH, EXECUTOR, POOL, 2n * E18),
        transfer(TOKEN, POOL, EXECUTOR, 900n),
        v3swap(POOL, EXECUTOR),
        transfer(TOKEN, EXECUTOR, ROUTER, 900n),
        transfer(TOKEN, ROUTER, FRONT_END, 900n),
        transfer(TOKEN, FRONT_END, FEE, 9n),
        transfer(TOKEN, FRONT_END, WALLET, 891n),
      ],
      FRONT_END,
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'buy', token: TOKEN, amountRaw: 891n, nativeRaw: 2n * E18, pool: POOL, poolKind: 'v3' }]);
  });

  it('a token-to-token route through WETH at depth keeps both legs and the native middle leg', () => {
    // 100 TOKEN -> executor -> pair (V2) -> 3 WETH -> executor -> pair2 -> 70 TOKEN2 -> router -> wallet.
    const r = receipt([
      transfer(TOKEN, WALLET, EXECUTOR, 100n),
      transfer(TOKEN, EXECUTOR, POOL, 100n),
      transfer(WETH, POOL, EXECUTOR, 3n * E18),
      v2swap(POOL),
      transfer(WETH, EXECUTOR, POOL2, 3n * E18),
      transfer(TOKEN2, POOL2, ROUTER, 70n),
      v2swap(POOL2),
      transfer(TOKEN2, ROUTER, WALLET, 70n),
    ]);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([
      ['sell', TOKEN, 100n, 3n * E18, 'v2'],
      ['buy', TOKEN2, 70n, 3n * E18, 'v2'],
    ]);
  });

  it('a router that unwraps and sends ETH on where no log shows: the sale for ETH is seen, at the pool’s figure', () => {
    // 500 TOKEN into the pool, 1.5 WETH to the router, which unwraps it all (the ETH reaches the wallet by an internal call).
    const r = receipt([
      transfer(TOKEN, WALLET, POOL, 500n),
      transfer(WETH, POOL, ROUTER, 15n * (E18 / 10n)),
      v2swap(POOL),
      withdrawal(ROUTER, 15n * (E18 / 10n)),
    ]);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['sell', TOKEN, 500n, 15n * (E18 / 10n), 'v2']]);
  });
});

describe('any venue', () => {
  it('a market maker filling from a plain account is a venue; the contract whose fill event names it gives its slug', () => {
    // The adapter sends 0.3 WETH to the maker, which pays 600 STABLE; the fill contract's event names the maker.
    const fill = log(FILLS, ['0x' + 'ab'.repeat(32), topic(MAKER), topic(FRONT_END)], '0x' + word(600n));
    const r = receipt(
      [transfer(WETH, FRONT_END, MAKER, 3n * (E18 / 10n)), transfer(STABLE, MAKER, FRONT_END, 600n), fill, transfer(STABLE, FRONT_END, WALLET, 600n)],
      FRONT_END,
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([
      { side: 'buy', token: STABLE, amountRaw: 600n, nativeRaw: 3n * (E18 / 10n), pool: MAKER, poolKind: 'other', dex: 'airswap' },
    ]);
    // The same fill with no table naming the fill contract: unknown.
    expect(decodeReceipt(r, WALLET, { ...chain, namedContracts: [] }).map((t) => t.dex)).toEqual(['unknown']);
  });

  it('a market maker’s protocol fee sent to an account that keeps it is not part of what it paid the route', () => {
    // 40 STABLE to the maker; it pays 0.2 WETH to the adapter and 0.001 WETH to FEE (which keeps it); the adapter unwraps.
    const r = receipt(
      [
        transfer(STABLE, WALLET, FRONT_END, 40n),
        transfer(STABLE, FRONT_END, MAKER, 40n),
        transfer(WETH, MAKER, FRONT_END, 2n * (E18 / 10n)),
        transfer(WETH, MAKER, FEE, E18 / 1000n),
        withdrawal(FRONT_END, 2n * (E18 / 10n)),
      ],
      FRONT_END,
    );
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['sell', STABLE, 40n, 2n * (E18 / 10n), 'unknown']]);
  });

  it('a pool’s fee skimmed to its own account is part of what the buy paid it', () => {
    // 1 WETH into the pool, which skims 0.003 WETH to FEE and pays 50 TOKEN: the buy's native is the 1 WETH it took.
    const r = receipt([transfer(WETH, ROUTER, POOL, E18), transfer(WETH, POOL, FEE, 3n * (E18 / 1000n)), transfer(TOKEN, POOL, WALLET, 50n), v3swap(POOL)]);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['buy', TOKEN, 50n, E18, 'v3']]);
  });

  it('a Curve pool paying native ETH (no log moves it): the TokenExchange states it; dex curve', () => {
    // TokenExchange(buyer, sold_id 1, 1000 TOKEN, bought_id 0, 0.4 ETH): TOKEN moved in by Transfer, ETH out with no log.
    const ex = log(POOL, [CURVE_TOKEN_EXCHANGE_TOPIC, topic(WALLET)], '0x' + word(1n) + word(1000n) + word(0n) + word(4n * (E18 / 10n)));
    const r = receipt([transfer(TOKEN, WALLET, POOL, 1000n), ex], POOL);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 1000n, nativeRaw: 4n * (E18 / 10n), pool: POOL, poolKind: 'other', dex: 'curve' },
    ]);
  });

  it('a Uniswap V1 exchange paying ETH: EthPurchase states it', () => {
    // EthPurchase(buyer, tokens_sold 250, eth_bought 0.05 ETH), all indexed.
    const ex = log(POOL2, [UNISWAP_V1_ETH_PURCHASE_TOPIC, topic(WALLET), '0x' + word(250n), '0x' + word(5n * (E18 / 100n))]);
    const r = receipt([transfer(TOKEN, WALLET, POOL2, 250n), ex], POOL2);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['sell', TOKEN, 250n, 5n * (E18 / 100n), 'uniswap-v1']]);
  });
});

describe('one trade per token per side', () => {
  it('a split sell sums the parts and takes the venue that took the larger share', () => {
    // 300 TOKEN to POOL (V2, pays 1 WETH) and 700 to POOL2 (V3, pays 2.2 WETH): one sell of 1000 for 3.2, venue POOL2.
    const r = receipt([
      transfer(TOKEN, WALLET, POOL, 300n),
      transfer(WETH, POOL, ROUTER, E18),
      v2swap(POOL),
      transfer(TOKEN, WALLET, POOL2, 700n),
      transfer(WETH, POOL2, ROUTER, 22n * (E18 / 10n)),
      v3swap(POOL2),
      withdrawal(ROUTER, 32n * (E18 / 10n)),
    ]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([
      { side: 'sell', token: TOKEN, amountRaw: 1000n, nativeRaw: 32n * (E18 / 10n), pool: POOL2, poolKind: 'v3' },
    ]);
  });

  it('two buys of one transaction come in the order of the wallet’s first transfer of each (R9), each with its own venue’s native', () => {
    // 1 WETH -> POOL -> 10 TOKEN2 (second to reach the wallet), 2 WETH -> POOL2 -> 20 TOKEN (first to reach it).
    const r = receipt([
      transfer(WETH, ROUTER, POOL, E18),
      transfer(WETH, ROUTER, POOL2, 2n * E18),
      transfer(TOKEN, POOL2, WALLET, 20n),
      v2swap(POOL2),
      transfer(TOKEN2, POOL, WALLET, 10n),
      v2swap(POOL),
    ]);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([
      ['buy', TOKEN, 20n, 2n * E18, 'v2'],
      ['buy', TOKEN2, 10n, E18, 'v2'],
    ]);
  });

  it('a token-to-token split where only part crosses WETH has no native figure on either trade (R5)', () => {
    // 600 TOKEN -> POOL -> 1 WETH -> POOL2 -> 30 TOKEN2; 400 TOKEN -> MAKER (direct) -> 20 TOKEN2.
    const r = receipt([
      transfer(TOKEN, WALLET, ROUTER, 1000n),
      transfer(TOKEN, ROUTER, POOL, 600n),
      transfer(WETH, POOL, POOL2, E18),
      v2swap(POOL),
      transfer(TOKEN2, POOL2, ROUTER, 30n),
      v2swap(POOL2),
      transfer(TOKEN, ROUTER, MAKER, 400n),
      transfer(TOKEN2, MAKER, ROUTER, 20n),
      transfer(TOKEN2, ROUTER, WALLET, 50n),
    ]);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([
      ['sell', TOKEN, 1000n, null, 'v2'],
      ['buy', TOKEN2, 50n, null, 'v2'],
    ]);
  });
});

describe('the route’s output must reach the wallet (R8)', () => {
  it('a swap paying another address is no trade', () => {
    const r = receipt([transfer(TOKEN, WALLET, POOL, 100n), transfer(STABLE, POOL, A(0xb0b), 95n), v2swap(POOL)]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });

  it('a zap whose output goes into a liquidity position and whose dust comes back is no trade', () => {
    // 100 STABLE -> POOL -> 1000 TOKEN to the zapper; 990 TOKEN + 50 STABLE into a V3 pool that swapped nothing (a position), 10 TOKEN back.
    const r = receipt(
      [
        transfer(STABLE, WALLET, ROUTER, 100n),
        transfer(STABLE, ROUTER, POOL, 50n),
        transfer(TOKEN, POOL, ROUTER, 1000n),
        v3swap(POOL),
        transfer(TOKEN, ROUTER, POOL2, 990n),
        transfer(STABLE, ROUTER, POOL2, 50n),
        transfer(TOKEN, ROUTER, WALLET, 10n),
      ],
      ROUTER,
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });

  it('a buy with native coin while the wallet received native and gave nothing is a swap by others (a loan repaid from collateral)', () => {
    // The controller releases 5 WETH collateral: 1 WETH is swapped for 80 TOKEN for the wallet, 4 WETH returned to it.
    const r = receipt([
      transfer(WETH, POOL2, ROUTER, 5n * E18),
      transfer(WETH, ROUTER, POOL, E18),
      transfer(TOKEN, POOL, WALLET, 80n),
      v2swap(POOL),
      transfer(WETH, ROUTER, WALLET, 4n * E18),
    ]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });
});

describe('not trades: conversions (receipt tokens, wraps, LP)', () => {
  const VAULT = A(0x7a7);
  const LP = A(0x1b1);

  it('a deposit into a vault minting shares, and the withdrawal, are no trades', () => {
    const dep = receipt([transfer(STABLE, WALLET, VAULT, 100n), transfer(VAULT, ZERO, WALLET, 95n)], VAULT);
    expect(decodeReceipt(dep, WALLET, chain)).toEqual([]);
    const wd = receipt([transfer(VAULT, WALLET, ZERO, 95n), transfer(STABLE, VAULT, WALLET, 101n)], VAULT);
    expect(decodeReceipt(wd, WALLET, chain)).toEqual([]);
  });

  it('a token wrapped on the route’s way to a pool is passed through: the pool is the venue', () => {
    // 10 TOKEN -> router -> wrapper contract VAULT (mints 8 VAULT to the router) -> POOL -> 0.5 WETH -> router (unwrapped).
    const r = receipt([
      transfer(TOKEN, WALLET, ROUTER, 10n),
      transfer(TOKEN, ROUTER, VAULT, 10n),
      transfer(VAULT, ZERO, ROUTER, 8n),
      transfer(VAULT, ROUTER, POOL, 8n),
      transfer(WETH, POOL, ROUTER, E18 / 2n),
      v3swap(POOL),
      withdrawal(ROUTER, E18 / 2n),
    ]);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([{ side: 'sell', token: TOKEN, amountRaw: 10n, nativeRaw: E18 / 2n, pool: POOL, poolKind: 'v3' }]);
  });

  it('shares minted from what the route bought are bought; an LP token redeemed and swapped is a liquidity remove', () => {
    // Buy: 1 WETH -> POOL -> 30 STABLE -> VAULT deposit -> 28 VAULT shares to the router -> wallet.
    const buy = receipt([
      transfer(WETH, ROUTER, POOL, E18),
      transfer(STABLE, POOL, ROUTER, 30n),
      v2swap(POOL),
      transfer(STABLE, ROUTER, VAULT, 30n),
      transfer(VAULT, ZERO, ROUTER, 28n),
      transfer(VAULT, ROUTER, WALLET, 28n),
    ]);
    expect(brief(decodeReceipt(buy, WALLET, chain))).toEqual([['buy', VAULT, 28n, E18, 'v2']]);
    // Remove: 5 LP back to its contract (burnt), which pays 40 STABLE to the router, swapped on POOL for 1 WETH (unwrapped for the wallet).
    const remove = receipt([
      transfer(LP, WALLET, LP, 5n),
      transfer(LP, LP, ZERO, 5n),
      transfer(STABLE, LP, ROUTER, 40n),
      transfer(STABLE, ROUTER, POOL, 40n),
      transfer(WETH, POOL, ROUTER, E18),
      v2swap(POOL),
      withdrawal(ROUTER, E18),
    ]);
    expect(decodeReceipt(remove, WALLET, chain)).toEqual([]);
  });

  it('wrapping and unwrapping through a router are no trades', () => {
    const wrap = receipt([deposit(ROUTER, E18), transfer(WETH, ROUTER, WALLET, E18)]);
    expect(decodeReceipt(wrap, WALLET, chain)).toEqual([]);
    const unwrap = receipt([transfer(WETH, WALLET, ROUTER, E18), withdrawal(ROUTER, E18)]);
    expect(decodeReceipt(unwrap, WALLET, chain)).toEqual([]);
  });
});

describe('what the source gives beyond the receipt', () => {
  it('the transaction’s value and the internal transfers of a call trace show native coin no log moves', () => {
    // A reserve takes 45 STABLE and pays 0.2 ETH by an internal call, passed on to the wallet: only the trace shows it.
    const logs = [transfer(STABLE, WALLET, ROUTER, 45n), transfer(STABLE, ROUTER, MAKER, 45n)];
    expect(decodeReceipt(receipt(logs), WALLET, chain)).toEqual([]);
    const internal = [
      { from: MAKER, to: ROUTER, value: 2n * (E18 / 10n) },
      { from: ROUTER, to: WALLET, value: 2n * (E18 / 10n) },
    ];
    expect(brief(decodeReceipt(receipt(logs), WALLET, chain, new Map(), { internal }))).toEqual([['sell', STABLE, 45n, 2n * (E18 / 10n), 'unknown']]);
    // A buy paid with the transaction's value straight into a pool that takes ETH.
    const ex = log(POOL, [CURVE_TOKEN_EXCHANGE_TOPIC, topic(WALLET)], '0x' + word(0n) + word(E18) + word(1n) + word(777n));
    const buy = receipt([transfer(TOKEN, POOL, WALLET, 777n), ex], POOL);
    expect(brief(decodeReceipt(buy, WALLET, chain, new Map(), { transaction: { to: POOL, value: E18 } }))).toEqual([['buy', TOKEN, 777n, E18, 'curve']]);
  });

  it('native coin deposited into a vault on the way to a venue is the buy’s native leg, with or without the transaction’s value', () => {
    // 2 ETH sent to the router, wrapped and deposited into VAULT (1.9 shares to the router), the shares swapped on POOL for 50 TOKEN.
    const VAULT = A(0x7a7);
    const logs = [
      log(WETH, [WETH_DEPOSIT_TOPIC, topic(ROUTER)], '0x' + word(2n * E18)),
      transfer(WETH, ROUTER, VAULT, 2n * E18),
      transfer(VAULT, ZERO, ROUTER, 19n * (E18 / 10n)),
      transfer(VAULT, ROUTER, POOL, 19n * (E18 / 10n)),
      transfer(TOKEN, POOL, ROUTER, 50n),
      v2swap(POOL),
      transfer(TOKEN, ROUTER, WALLET, 50n),
    ];
    const want = [['buy', TOKEN, 50n, 2n * E18, 'v2']];
    expect(brief(decodeReceipt(receipt(logs), WALLET, chain))).toEqual(want);
    expect(brief(decodeReceipt(receipt(logs), WALLET, chain, new Map(), { transaction: { to: ROUTER, value: 2n * E18 } }))).toEqual(want);
  });
});

describe('Curve pools with an LP token of their own, and rounding at an executor', () => {
  // 3pool's shape: the pool takes the coins, its separate LP token contract mints to the provider,
  // then the pool emits AddLiquidity(provider indexed, uint256[3] amounts, uint256[3] fees, invariant, supply).
  const CURVE_3POOL = A(0x3c0);
  const LP = A(0x3c1);
  const LP_POOL = A(0x3c2);
  const ADD_LIQUIDITY_3 = '0x423f6495a08fc652425cf4ed0d1f9e37e571d9b9529b1c1c23cce780b2e7df0d';
  const addLiquidity = (pool: string, provider: string, amounts: bigint[]) =>
    log(pool, [ADD_LIQUIDITY_3, topic(provider)], '0x' + [...amounts, 0n, 0n, 0n, 0n, 0n].map(word).join(''));
  // Curve cryptoswap TokenExchange(buyer indexed, sold_id, tokens_sold, bought_id, tokens_bought).
  const CRYPTO_EXCHANGE = '0xb2e76ae99761dc136e598d4a629bb347eccb9532a5f8bbd72e18467c3c34cc98';
  const exchange = (pool: string, buyer: string, sold: bigint, bought: bigint) =>
    log(pool, [CRYPTO_EXCHANGE, topic(buyer)], '0x' + [1n, sold, 0n, bought].map(word).join(''));

  it('2 WETH deposited into the pool, its LP tokens swapped for 1,800 TOKEN: a buy of 1,800 for the 2 ETH the deposit took', () => {
    // The wallet pays 2 ETH (tx value) to the router, which wraps it, deposits the WETH into the
    // pool (3 LP minted to the router by the LP contract), and swaps the 3 LP in LP_POOL for 1,800 TOKEN.
    const r = receipt([
      deposit(ROUTER, 2n * E18),
      transfer(WETH, ROUTER, CURVE_3POOL, 2n * E18),
      transfer(LP, ZERO, ROUTER, 3n * E18),
      addLiquidity(CURVE_3POOL, ROUTER, [2n * E18, 0n, 0n]),
      transfer(LP, ROUTER, LP_POOL, 3n * E18),
      transfer(TOKEN, LP_POOL, ROUTER, 1800n * E18),
      exchange(LP_POOL, ROUTER, 3n * E18, 1800n * E18),
      transfer(TOKEN, ROUTER, WALLET, 1800n * E18),
    ]);
    const trades = decodeReceipt(r, WALLET, chain, new Map(), { transaction: { to: ROUTER, value: 2n * E18 } });
    expect(brief(trades)).toEqual([['buy', TOKEN, 1800n * E18, 2n * E18, 'curve']]);
  });

  it('a deposit whose LP tokens the provider burns again (add, then remove one coin) is left to the pool’s own flows: a sale for what it paid', () => {
    // 500 STABLE into the pool, 490 LP minted and burnt again, the pool pays 0.25 WETH to the router.
    const r = receipt([
      transfer(STABLE, WALLET, ROUTER, 500n * E18),
      transfer(STABLE, ROUTER, CURVE_3POOL, 500n * E18),
      transfer(LP, ZERO, ROUTER, 490n * E18),
      addLiquidity(CURVE_3POOL, ROUTER, [500n * E18, 0n, 0n]),
      transfer(LP, ROUTER, ZERO, 490n * E18),
      transfer(WETH, CURVE_3POOL, ROUTER, E18 / 4n),
      transfer(WETH, ROUTER, WALLET, E18 / 4n),
    ]);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['sell', STABLE, 500n * E18, E18 / 4n, 'unknown']]);
  });

  it('a deposit of the wallet’s own is no trade: the LP token is minted against the coins', () => {
    const r = receipt(
      [transfer(STABLE, WALLET, CURVE_3POOL, 500n * E18), transfer(LP, ZERO, WALLET, 490n * E18), addLiquidity(CURVE_3POOL, WALLET, [500n * E18, 0n, 0n])],
      CURVE_3POOL,
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });

  it('an executor that keeps a wei of the sold token and pays a wei of another from its balance is a pass-through, not a venue', () => {
    // 1,000 TOKEN2 to the executor: 999.999...(less 1 wei) to POOL, which pays 1 WETH back; the executor
    // also pays 1 wei of TOKEN it held to POOL2 (rounding of a split it made earlier).
    const r = receipt(
      [
        transfer(TOKEN2, WALLET, EXECUTOR, 1000n * E18),
        transfer(TOKEN2, EXECUTOR, POOL, 1000n * E18 - 1n),
        transfer(WETH, POOL, EXECUTOR, E18),
        v2swap(POOL),
        transfer(TOKEN, EXECUTOR, POOL2, 1n),
        transfer(WETH, EXECUTOR, WALLET, E18),
      ],
      EXECUTOR,
    );
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([['sell', TOKEN2, 1000n * E18, E18, 'v2']]);
  });
});

describe('a peg stability module whose pocket holds its gems', () => {
  const PSM = A(0x95a);
  const POCKET = A(0x90c);
  const DAI = A(0xda1);
  const USDC = A(0x05dc);
  const BUY_GEM = '0x085d06ecf4c34b237767a31c0888e121d89546a77f186f1987c6b8715e1a8caa';
  const SELL_GEM = '0xef75f5a47cc9a929968796ceb84f19e7541617b4577f2c228ea95200e1572081';
  const gemEvent = (sig: string, owner: string, value: bigint) => log(PSM, [sig, topic(owner)], '0x' + word(value) + word(0n));

  it('buyGem: 2,972.49 DAI into the module and 2,972.49 USDC from its pocket are one swap at the module', () => {
    const r = receipt(
      [transfer(DAI, WALLET, PSM, 2_972_491_485n * 10n ** 12n), transfer(USDC, POCKET, WALLET, 2_972_491_485n), gemEvent(BUY_GEM, WALLET, 2_972_491_485n)],
      PSM,
    );
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([
      ['sell', DAI, 2_972_491_485n * 10n ** 12n, null, 'other'],
      ['buy', USDC, 2_972_491_485n, null, 'other'],
    ]);
  });

  it('sellGem: 100 USDC into the pocket and 100 DAI from the module, less nothing', () => {
    const r = receipt([transfer(USDC, WALLET, POCKET, 100_000_000n), transfer(DAI, PSM, WALLET, 100n * E18), gemEvent(SELL_GEM, WALLET, 100_000_000n)], PSM);
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([
      ['sell', USDC, 100_000_000n, null, 'other'],
      ['buy', DAI, 100n * E18, null, 'other'],
    ]);
  });

  it('without the event the same transfers are a payment and a receipt, no trade', () => {
    const r = receipt([transfer(DAI, WALLET, PSM, 5n * E18), transfer(USDC, POCKET, WALLET, 5_000_000n)], PSM);
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });
});

describe('a Wombat pool, whose asset contracts hold its tokens', () => {
  const WOMBAT_POOL = A(0x3b0);
  const ASSET_IN = A(0x3b1);
  const ASSET_OUT = A(0x3b2);
  const USDT = A(0x0d7);
  const USDC = A(0x05dc);
  const SWAP_V2 = '0x7fa01e8d24e5a6ec56e00b4ff8ee7ed97e7650a7846ec494bbaa5d65f1be9ea4';
  const swapV2 = (sender: string, to: string, from: string, toToken: string, inAmount: bigint, outAmount: bigint, fee: bigint) =>
    log(
      WOMBAT_POOL,
      [SWAP_V2, topic(sender), topic(to)],
      '0x' + [topic(from).slice(2), topic(toToken).slice(2), word(inAmount), word(outAmount), word(fee)].join(''),
    );

  it('148.60 USDT into the USDT asset, 148.59 USDC from the USDC asset: one swap at the pool, slug wombat', () => {
    const r = receipt(
      [
        transfer(USDT, WALLET, ROUTER, 148_604_449n),
        transfer(USDT, ROUTER, ASSET_IN, 148_604_449n),
        transfer(USDC, ASSET_OUT, WALLET, 148_590_000n),
        swapV2(ROUTER, WALLET, USDT, USDC, 148_604_449n, 148_590_000n, 2_972n),
      ],
      ROUTER,
    );
    expect(brief(decodeReceipt(r, WALLET, chain))).toEqual([
      ['sell', USDT, 148_604_449n, null, 'wombat'],
      ['buy', USDC, 148_590_000n, null, 'wombat'],
    ]);
  });

  it('an event whose output transfer is not there joins nothing: the flows alone, no trade', () => {
    const r = receipt(
      [transfer(USDT, WALLET, ASSET_IN, 5n), transfer(USDC, ASSET_OUT, WALLET, 4n), swapV2(WALLET, WALLET, USDT, USDC, 5n, 6n, 0n)],
      WOMBAT_POOL,
    );
    expect(decodeReceipt(r, WALLET, chain)).toEqual([]);
  });
});

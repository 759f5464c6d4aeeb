import { encodeFunctionData, encodePacked, concat, pad, toHex, type Hex } from 'viem';
import { privateKeyToAccount, sign, serializeSignature } from 'viem/accounts';
import { formatUnits } from '../../../src/lib/core/decimal.js';
import { isoFromUnixSeconds, type SourceTrade, type Trade } from '../../../src/lib/core/trade.js';
import { toChecksumAddress } from '../../../src/lib/chains/evm/address.js';
import { startAnvil, type AnvilNode } from './anvil.js';
import { ARTIFACTS, createChainDriver, type ChainDriver, type Receipt } from './contracts.js';

/**
 * Builds a chain on anvil where a wallet trades on Uniswap V2 and V3 (every kind the EVM issue
 * lists), interleaved with non-trades, and records the ground truth of each trade from balance
 * changes (wallet token balances, the pool's wrapped-native balance, the wallet's ETH minus gas)
 * and the script's own record of what it sent: never from the logs the decoder reads.
 */

export type TradeKind =
  | 'v2-buy-exact-in'
  | 'v2-buy-exact-out-refund'
  | 'v2-sell-exact-in'
  | 'v2-sell-exact-out'
  | 'token-to-token-direct'
  | 'token-to-token-via-weth'
  | 'v3-buy'
  | 'v3-buy-exact-out-refund'
  | 'v3-sell-unwrap'
  | 'v3-multihop-via-weth'
  | 'fot-buy'
  | 'fot-sell'
  | 'fork-buy'
  | 'aa-buy'
  | 'aa-sell';

export interface GroundTruthTrade extends SourceTrade {
  kind: TradeKind;
}

/** The eight fields of the v1 Trade (what the HTTP API must return for a ground-truth trade). */
export function asTrade(t: GroundTruthTrade): Trade {
  return {
    signature: t.signature,
    side: t.side,
    token: t.token,
    tokenMint: t.tokenMint,
    amountSol: t.amountSol,
    amount: t.amount,
    dex: t.dex,
    blockTime: t.blockTime,
  };
}

export interface ScenarioAddresses {
  weth: string;
  v2Factory: string;
  v2Router: string;
  forkFactory: string;
  v3Factory: string;
  v3Router: string;
  entryPoint: string | null;
  tokens: Record<string, string>;
}

export interface Scenario {
  rpcUrl: string;
  chainId: number;
  wallet: string;
  /** ERC-4337 smart account whose swaps go through a bundler (null when not built). */
  aaWallet: string | null;
  /** Newest first, legs in order, as the source must deliver them. */
  groundTruth: GroundTruthTrade[];
  aaGroundTruth: GroundTruthTrade[];
  /** Counts of things done that are not trades of the wallet. */
  nonTrades: Record<string, number>;
  addresses: ScenarioAddresses;
  firstBlock: number;
  lastBlock: number;
  /** Makes one more buy of the wallet now (newest block, not yet behind the confirmation point). */
  extraBuy(): Promise<GroundTruthTrade>;
  /** Mines empty blocks. */
  mine(blocks: number): Promise<void>;
  /** EVM_CHAINS_FILE entry for this chain (slug given by the caller). */
  chainsFileEntry(slug: string): Record<string, unknown>;
  stop(): Promise<void>;
}

export interface ScenarioOptions {
  chainId?: number;
  /** Rounds; each makes 12 swaps of the wallet (plus 2 through the 4337 account when enabled). */
  rounds?: number;
  /** Rounds made back to back (dense: a 1,000-block range then holds more than 50 of the wallet's logs). */
  clusterSize?: number;
  /** Empty blocks mined between clusters (3 clusters x 10,500 spread the trades over > 20,000 blocks). */
  gapBlocks?: number;
  erc4337?: boolean;
}

const DEADLINE = 2n ** 40n;
const E18 = 10n ** 18n;

// anvil's default dev accounts (unlocked).
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const BUNDLER = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';
// Owner key of the smart account (any key; it never holds ETH).
const AA_OWNER_KEY = '0x1111111111111111111111111111111111111111111111111111111111111111' as Hex;

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  for (;;) {
    const y = (x + n / x) / 2n;
    if (y >= x && x * x <= n && (x + 1n) * (x + 1n) > n) return x;
    x = y;
  }
}

export async function buildScenario(options: ScenarioOptions = {}): Promise<Scenario> {
  const chainId = options.chainId ?? 31337;
  const rounds = options.rounds ?? 18;
  const gapBlocks = options.gapBlocks ?? 10_500;
  const clusterSize = options.clusterSize ?? 6;
  const erc4337 = options.erc4337 ?? true;
  const node = await startAnvil({ chainId });
  try {
    const meta = await script(createChainDriver(node.url), { rounds, gapBlocks, clusterSize, erc4337 });
    return finish(node, meta);
  } catch (e) {
    await node.stop();
    throw e;
  }
}

type Meta = Awaited<ReturnType<typeof script>>;

function finish(node: AnvilNode, meta: Meta): Scenario {
  return {
    rpcUrl: node.url,
    chainId: node.chainId,
    wallet: WALLET,
    aaWallet: meta.aaWallet,
    groundTruth: meta.groundTruth,
    aaGroundTruth: meta.aaGroundTruth,
    nonTrades: meta.nonTrades,
    addresses: meta.addresses,
    firstBlock: meta.firstBlock,
    lastBlock: meta.lastBlock,
    extraBuy: meta.extraBuy,
    mine: (n) => createChainDriver(node.url).mine(n),
    chainsFileEntry: (slug) => ({
      slug,
      chainId: node.chainId,
      rpcUrl: node.url,
      nativeSymbol: 'ETH',
      wrappedNative: toChecksumAddress(meta.addresses.weth),
      explorerUrl: 'http://127.0.0.1/tx/{signature}',
      confirmation: 'safe',
      dexes: [
        { name: 'uniswap-v2', kind: 'v2', factory: meta.addresses.v2Factory },
        { name: 'uniswap-v3', kind: 'v3', factory: meta.addresses.v3Factory },
      ],
      ...(meta.addresses.entryPoint ? { entryPoints: [meta.addresses.entryPoint] } : {}),
    }),
    stop: () => node.stop(),
  };
}

function sortNewestFirst(ts: GroundTruthTrade[]): GroundTruthTrade[] {
  return [...ts].sort((a, b) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1));
}

async function script(d: ChainDriver, o: { rounds: number; gapBlocks: number; clusterSize: number; erc4337: boolean }) {
  const A = {
    weth: ARTIFACTS.weth9(),
    v2Factory: ARTIFACTS.v2Factory(),
    v2Router: ARTIFACTS.v2Router(),
    v2Pair: ARTIFACTS.v2Pair(),
    fixed: ARTIFACTS.erc20Fixed(),
    defl: ARTIFACTS.deflating(),
    v1Ex: ARTIFACTS.v1Exchange(),
    v1Fac: ARTIFACTS.v1Factory(),
    v3Factory: ARTIFACTS.v3Factory(),
    v3Router: ARTIFACTS.v3Router(),
    v3Pos: ARTIFACTS.v3Positions(),
  };
  const erc20 = A.fixed; // any ERC-20 ABI for balanceOf/transfer/approve
  const MAX = 2n ** 256n - 1n;

  // --- Deploy venues and tokens -------------------------------------------------------------
  const weth = (await d.deploy(DEPLOYER, A.weth)).toLowerCase();
  const v2Factory = (await d.deploy(DEPLOYER, A.v2Factory, [DEPLOYER])).toLowerCase();
  const v2Router = (await d.deploy(DEPLOYER, A.v2Router, [v2Factory, weth])).toLowerCase();
  // A second factory with the same pair code, absent from the chain's dex table: unknown-v2-fork.
  const forkFactory = (await d.deploy(DEPLOYER, A.v2Factory, [DEPLOYER])).toLowerCase();
  const forkRouter = (await d.deploy(DEPLOYER, A.v2Router, [forkFactory, weth])).toLowerCase();
  const v3Factory = (await d.deploy(DEPLOYER, A.v3Factory)).toLowerCase();
  const v3Router = (await d.deploy(DEPLOYER, A.v3Router, [v3Factory, weth])).toLowerCase();
  const v3Pos = (await d.deploy(DEPLOYER, A.v3Pos, [v3Factory, weth, '0x0000000000000000000000000000000000000000'])).toLowerCase();

  const supply = 10n ** 9n * E18;
  const alp = (await d.deploy(DEPLOYER, A.fixed, ['Alpha', 'ALP', supply, DEPLOYER])).toLowerCase();
  const brv = (await d.deploy(DEPLOYER, A.fixed, ['Bravo', 'BRV', supply, DEPLOYER])).toLowerCase();
  const chr = (await d.deploy(DEPLOYER, A.fixed, ['Charlie', 'CHR', supply, DEPLOYER])).toLowerCase();
  const dtt = (await d.deploy(DEPLOYER, A.defl, [supply])).toLowerCase();
  // bytes32 symbol: a Uniswap V1 exchange is itself an ERC-20 (its liquidity token) whose
  // name/symbol are bytes32 ("Uniswap V1"/"UNI-V1"); no npm package ships a plainer one.
  const v1Template = await d.deploy(DEPLOYER, A.v1Ex);
  const v1Factory = await d.deploy(DEPLOYER, A.v1Fac);
  await d.send(DEPLOYER, v1Factory, A.v1Fac, 'initializeFactory', [v1Template]);
  await d.send(DEPLOYER, v1Factory, A.v1Fac, 'createExchange', [brv]);
  const uni = ((await d.read<string>(v1Factory, A.v1Fac, 'getExchange', [brv])) as string).toLowerCase();
  await d.send(DEPLOYER, brv, erc20, 'approve', [uni, MAX]);
  await d.send(DEPLOYER, uni, A.v1Ex, 'addLiquidity', [1n, 10n ** 6n * E18, DEADLINE], 2000n * E18);

  const SYMBOL: Record<string, string> = { [alp]: 'ALP', [brv]: 'BRV', [chr]: 'CHR', [dtt]: 'DTT', [uni]: 'UNI-V1' };

  // --- Liquidity ------------------------------------------------------------------------------
  for (const t of [alp, brv, chr, dtt, uni]) {
    for (const r of [v2Router, forkRouter, v3Pos]) await d.send(DEPLOYER, t, erc20, 'approve', [r, MAX]);
  }
  const addEth = (router: string, token: string, amount: bigint, eth: bigint) =>
    d.send(DEPLOYER, router, A.v2Router, 'addLiquidityETH', [token, amount, 0n, 0n, DEPLOYER, DEADLINE], eth, 6_000_000n);
  await addEth(v2Router, alp, 10n ** 6n * E18, 300n * E18);
  await addEth(v2Router, brv, 10n ** 6n * E18, 300n * E18);
  await addEth(v2Router, dtt, 10n ** 6n * E18, 300n * E18);
  await addEth(v2Router, uni, 1000n * E18, 300n * E18);
  await addEth(forkRouter, alp, 10n ** 6n * E18, 300n * E18);
  await d.send(DEPLOYER, v2Router, A.v2Router, 'addLiquidity', [alp, brv, 10n ** 6n * E18, 10n ** 6n * E18, 0n, 0n, DEPLOYER, DEADLINE], 0n, 6_000_000n);
  const pairOf = async (a: string, b: string) => ((await d.read<string>(v2Factory, A.v2Factory, 'getPair', [a, b])) as string).toLowerCase();
  const forkPair = ((await d.read<string>(forkFactory, A.v2Factory, 'getPair', [alp, weth])) as string).toLowerCase();

  // V3 CHR/WETH 0.3%: 1 WETH = 1,000 CHR, full-range liquidity.
  const FEE = 3000;
  const [t0, t1] = BigInt(chr) < BigInt(weth) ? [chr, weth] : [weth, chr];
  const price = t0 === weth ? 1000n : 1n; // token1 per token0, scaled below
  const sqrtPriceX96 = t0 === weth ? isqrt(price << 192n) : isqrt((1n << 192n) / 1000n);
  await d.send(DEPLOYER, v3Pos, A.v3Pos, 'createAndInitializePoolIfNecessary', [t0, t1, FEE, sqrtPriceX96], 0n, 6_000_000n);
  await d.send(DEPLOYER, weth, A.weth, 'deposit', [], 400n * E18);
  await d.send(DEPLOYER, weth, erc20, 'approve', [v3Pos, MAX]);
  const amt0 = t0 === weth ? 300n * E18 : 300_000n * E18;
  const amt1 = t1 === weth ? 300n * E18 : 300_000n * E18;
  await d.send(
    DEPLOYER,
    v3Pos,
    A.v3Pos,
    'mint',
    [
      {
        token0: t0,
        token1: t1,
        fee: FEE,
        tickLower: -887220,
        tickUpper: 887220,
        amount0Desired: amt0,
        amount1Desired: amt1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: DEPLOYER,
        deadline: DEADLINE,
      },
    ],
    0n,
    8_000_000n,
  );
  const v3Pool = ((await d.read<string>(v3Factory, A.v3Factory, 'getPool', [chr, weth, FEE])) as string).toLowerCase();
  // A second V3 pool, BRV/WETH at 1 WETH = 1,000 BRV, for multi-hop routes CHR -> WETH -> BRV.
  {
    const [b0, b1] = BigInt(brv) < BigInt(weth) ? [brv, weth] : [weth, brv];
    const sp = b0 === weth ? isqrt(1000n << 192n) : isqrt((1n << 192n) / 1000n);
    await d.send(DEPLOYER, v3Pos, A.v3Pos, 'createAndInitializePoolIfNecessary', [b0, b1, FEE, sp], 0n, 6_000_000n);
    await d.send(
      DEPLOYER,
      v3Pos,
      A.v3Pos,
      'mint',
      [
        {
          token0: b0,
          token1: b1,
          fee: FEE,
          tickLower: -887220,
          tickUpper: 887220,
          amount0Desired: b0 === weth ? 100n * E18 : 100_000n * E18,
          amount1Desired: b1 === weth ? 100n * E18 : 100_000n * E18,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: DEPLOYER,
          deadline: DEADLINE,
        },
      ],
      0n,
      8_000_000n,
    );
  }
  const v3PoolBrv = ((await d.read<string>(v3Factory, A.v3Factory, 'getPool', [brv, weth, FEE])) as string).toLowerCase();

  const pools = {
    alp: await pairOf(alp, weth),
    brv: await pairOf(brv, weth),
    dtt: await pairOf(dtt, weth),
    uni: await pairOf(uni, weth),
    alpBrv: await pairOf(alp, brv),
  };

  // --- Wallet setup: tokens in (transfers from the deployer are not trades), approvals ----------
  const nonTrades: Record<string, number> = {};
  const nt = (k: string) => (nonTrades[k] = (nonTrades[k] ?? 0) + 1);
  for (const [t, amount] of [
    [alp, 200_000n * E18],
    [brv, 200_000n * E18],
    [chr, 100_000n * E18],
    [dtt, 50_000n * E18],
    [uni, 100n * E18],
  ] as const) {
    await d.send(DEPLOYER, t, erc20, 'transfer', [WALLET, amount]);
    await d.send(DEPLOYER, t, erc20, 'transfer', [OTHER, amount / 10n]);
    nt('transfer-in');
    for (const r of [v2Router, forkRouter, v3Router]) await d.send(WALLET, t, erc20, 'approve', [r, MAX]);
  }
  await d.send(WALLET, pools.alp, A.v2Pair, 'approve', [v2Router, MAX]);

  const firstBlock = Number(BigInt(await d.rpc.call<string>('eth_blockNumber')));
  const truth: GroundTruthTrade[] = [];
  const aaTruth: GroundTruthTrade[] = [];

  const balanceOf = async (token: string, who: string) => (await d.read<bigint>(token, erc20, 'balanceOf', [who])) as bigint;

  interface Leg {
    side: 'buy' | 'sell';
    token: string;
  }
  /**
   * Runs one swap and records its legs: token amount = the trader's balance change; native amount
   * = the wrapped-native balance change of `nativePool` (the venue's figure), cross-checked
   * against the trader's ETH change net of gas when ETH is paid or received directly.
   */
  async function swap(
    kind: TradeKind,
    dex: string,
    legs: Leg[],
    nativePool: string | null,
    run: () => Promise<Receipt>,
    opts: { trader?: string; ethCheck?: boolean; into?: GroundTruthTrade[] } = {},
  ) {
    const trader = opts.trader ?? WALLET;
    const before = await Promise.all(legs.map((l) => balanceOf(l.token, trader)));
    const poolBefore = nativePool ? await balanceOf(weth, nativePool) : 0n;
    const ethBefore = await d.ethBalance(trader);
    const r = await run();
    if (r.status !== '0x1') throw new Error(`${kind} reverted`);
    const after = await Promise.all(legs.map((l) => balanceOf(l.token, trader)));
    const poolAfter = nativePool ? await balanceOf(weth, nativePool) : 0n;
    const ethAfter = await d.ethBalance(trader);
    const native = nativePool ? (poolAfter > poolBefore ? poolAfter - poolBefore : poolBefore - poolAfter) : null;
    if (opts.ethCheck !== false && nativePool && trader === WALLET) {
      const gas = BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
      const ethDelta = ethAfter > ethBefore - gas ? ethAfter - (ethBefore - gas) : ethBefore - gas - ethAfter;
      if (legs.length === 1 && ethDelta !== native) throw new Error(`${kind}: ETH change ${ethDelta} != pool WETH change ${native}`);
    }
    const ts = await d.blockTimestamp(r.blockNumber);
    const position = `${String(Number(BigInt(r.blockNumber))).padStart(12, '0')}.${String(Number(BigInt(r.transactionIndex))).padStart(6, '0')}`;
    legs.forEach((l, i) => {
      const delta = after[i] > before[i] ? after[i] - before[i] : before[i] - after[i];
      if ((l.side === 'buy') !== after[i] > before[i]) throw new Error(`${kind}: leg ${i} moved the wrong way`);
      (opts.into ?? truth).push({
        kind,
        signature: r.transactionHash.toLowerCase(),
        side: l.side,
        token: SYMBOL[l.token],
        tokenMint: toChecksumAddress(l.token),
        amountSol: native === null ? null : formatUnits(native, 18),
        amount: formatUnits(delta, 18),
        dex,
        blockTime: isoFromUnixSeconds(ts),
        position,
        leg: i,
      });
    });
  }

  const R = A.v2Router;
  const v2 =
    (fn: string, args: unknown[], value = 0n, router = v2Router) =>
    () =>
      d.send(WALLET, router, R, fn, args, value, 1_500_000n);
  const ethAmt = (i: number, base: bigint) => base + BigInt(i) * 7n * 10n ** 15n; // varied, exact wei
  const buyTokens = [alp, brv, uni];
  const poolFor: Record<string, string> = { [alp]: pools.alp, [brv]: pools.brv, [uni]: pools.uni, [dtt]: pools.dtt };

  // --- ERC-4337 smart account ---------------------------------------------------------------
  let aa: null | { account: string; op: (callData: Hex) => Promise<Receipt> } = null;
  let entryPoint: string | null = null;
  if (o.erc4337) aa = await setupAccount(d, v2Router, [alp, uni], (ep) => (entryPoint = ep));

  // --- Rounds ---------------------------------------------------------------------------------
  for (let i = 0; i < o.rounds; i++) {
    const T = buyTokens[i % 3];
    const pool = poolFor[T];
    await swap(
      'v2-buy-exact-in',
      'uniswap-v2',
      [{ side: 'buy', token: T }],
      pool,
      v2('swapExactETHForTokens', [0n, [weth, T], WALLET, DEADLINE], ethAmt(i, 10n ** 17n)),
    );

    // Non-trade: ETH wrap or unwrap (no Transfer log at all).
    if (i % 2 === 0) {
      await d.send(WALLET, weth, A.weth, 'deposit', [], 10n ** 16n);
      nt('wrap');
    } else {
      await d.send(WALLET, weth, A.weth, 'withdraw', [10n ** 16n]);
      nt('unwrap');
    }

    {
      const out = T === uni ? ethAmt(i, 10n ** 15n) : ethAmt(i, 10n ** 20n);
      const [need] = (await d.read<bigint[]>(v2Router, R, 'getAmountsIn', [out, [weth, T]])) as bigint[];
      await swap(
        'v2-buy-exact-out-refund',
        'uniswap-v2',
        [{ side: 'buy', token: T }],
        pool,
        v2('swapETHForExactTokens', [out, [weth, T], WALLET, DEADLINE], need + need / 2n + 12345n),
      );
    }
    {
      const amtIn = T === uni ? ethAmt(i, 10n ** 14n) : ethAmt(i, 3n * 10n ** 19n);
      await swap('v2-sell-exact-in', 'uniswap-v2', [{ side: 'sell', token: T }], pool, v2('swapExactTokensForETH', [amtIn, 0n, [T, weth], WALLET, DEADLINE]));
    }
    await swap(
      'v2-sell-exact-out',
      'uniswap-v2',
      [{ side: 'sell', token: T }],
      pool,
      v2('swapTokensForExactETH', [ethAmt(i, 2n * 10n ** 16n), MAX, [T, weth], WALLET, DEADLINE]),
    );

    // Non-trade: the wallet sends tokens away, or receives some from another wallet.
    if (i % 2 === 0) {
      await d.send(WALLET, alp, erc20, 'transfer', [OTHER, 1000n * E18 + BigInt(i)]);
      nt('transfer-out');
    } else {
      await d.send(OTHER, brv, erc20, 'transfer', [WALLET, 500n * E18 + BigInt(i)]);
      nt('transfer-in');
    }

    {
      const [a, b] = i % 2 === 0 ? [alp, brv] : [brv, alp];
      await swap(
        'token-to-token-direct',
        'uniswap-v2',
        [
          { side: 'sell', token: a },
          { side: 'buy', token: b },
        ],
        null,
        v2('swapExactTokensForTokens', [ethAmt(i, 10n ** 20n), 0n, [a, b], WALLET, DEADLINE]),
      );
    }
    {
      const [a, b] = i % 2 === 0 ? [brv, uni] : [uni, alp];
      const amt = a === uni ? ethAmt(i, 10n ** 14n) : ethAmt(i, 5n * 10n ** 19n);
      await swap(
        'token-to-token-via-weth',
        'uniswap-v2',
        [
          { side: 'sell', token: a },
          { side: 'buy', token: b },
        ],
        poolFor[a],
        v2('swapExactTokensForTokens', [amt, 0n, [a, weth, b], WALLET, DEADLINE]),
      );
    }
    {
      const v = ethAmt(i, 10n ** 17n);
      await swap('v3-buy', 'uniswap-v3', [{ side: 'buy', token: chr }], v3Pool, () =>
        d.send(
          WALLET,
          v3Router,
          A.v3Router,
          'exactInputSingle',
          [{ tokenIn: weth, tokenOut: chr, fee: FEE, recipient: WALLET, deadline: DEADLINE, amountIn: v, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
          v,
          1_500_000n,
        ),
      );
    }
    {
      const out = ethAmt(i, 50n * E18);
      const maxIn = 10n ** 17n + 10n ** 16n; // about 0.05 ETH needed: the rest is refunded
      const calls = [
        encodeFunctionData({
          abi: A.v3Router.abi,
          functionName: 'exactOutputSingle',
          args: [
            { tokenIn: weth, tokenOut: chr, fee: FEE, recipient: WALLET, deadline: DEADLINE, amountOut: out, amountInMaximum: maxIn, sqrtPriceLimitX96: 0n },
          ],
        } as never),
        encodeFunctionData({ abi: A.v3Router.abi, functionName: 'refundETH', args: [] } as never),
      ];
      await swap('v3-buy-exact-out-refund', 'uniswap-v3', [{ side: 'buy', token: chr }], v3Pool, () =>
        d.send(WALLET, v3Router, A.v3Router, 'multicall', [calls], maxIn, 1_500_000n),
      );
    }
    {
      const amtIn = ethAmt(i, 40n * E18);
      const calls = [
        encodeFunctionData({
          abi: A.v3Router.abi,
          functionName: 'exactInputSingle',
          args: [
            { tokenIn: chr, tokenOut: weth, fee: FEE, recipient: v3Router, deadline: DEADLINE, amountIn: amtIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n },
          ],
        } as never),
        encodeFunctionData({ abi: A.v3Router.abi, functionName: 'unwrapWETH9', args: [0n, WALLET] } as never),
      ];
      await swap('v3-sell-unwrap', 'uniswap-v3', [{ side: 'sell', token: chr }], v3Pool, () =>
        d.send(WALLET, v3Router, A.v3Router, 'multicall', [calls], 0n, 1_500_000n),
      );
    }

    {
      // V3 multi-hop: sell one token, buy the other, through the WETH middle leg.
      const [a, b, firstPool] = i % 2 === 0 ? [chr, brv, v3Pool] : [brv, chr, v3PoolBrv];
      const path = encodePacked(['address', 'uint24', 'address', 'uint24', 'address'], [a as Hex, FEE, weth as Hex, FEE, b as Hex]);
      await swap(
        'v3-multihop-via-weth',
        'uniswap-v3',
        [
          { side: 'sell', token: a },
          { side: 'buy', token: b },
        ],
        firstPool,
        () =>
          d.send(
            WALLET,
            v3Router,
            A.v3Router,
            'exactInput',
            [{ path, recipient: WALLET, deadline: DEADLINE, amountIn: ethAmt(i, 20n * E18), amountOutMinimum: 0n }],
            0n,
            2_000_000n,
          ),
      );
    }

    // Non-trade: liquidity added (even rounds) and removed (odd rounds).
    if (i % 2 === 0) {
      await d.send(WALLET, v2Router, R, 'addLiquidityETH', [alp, 1000n * E18, 0n, 0n, WALLET, DEADLINE], 10n ** 18n, 3_000_000n);
      nt('liquidity-add');
    } else {
      const lp = await balanceOf(pools.alp, WALLET);
      await d.send(WALLET, v2Router, R, 'removeLiquidityETH', [alp, lp / 2n, 0n, 0n, WALLET, DEADLINE], 0n, 3_000_000n);
      nt('liquidity-remove');
    }

    await swap(
      'fot-buy',
      'uniswap-v2',
      [{ side: 'buy', token: dtt }],
      pools.dtt,
      v2('swapExactETHForTokensSupportingFeeOnTransferTokens', [0n, [weth, dtt], WALLET, DEADLINE], ethAmt(i, 5n * 10n ** 16n)),
    );
    await swap(
      'fot-sell',
      'uniswap-v2',
      [{ side: 'sell', token: dtt }],
      pools.dtt,
      v2('swapExactTokensForETHSupportingFeeOnTransferTokens', [ethAmt(i, 20n * E18), 0n, [dtt, weth], WALLET, DEADLINE]),
    );
    await swap(
      'fork-buy',
      'unknown-v2-fork',
      [{ side: 'buy', token: alp }],
      forkPair,
      v2('swapExactETHForTokens', [0n, [weth, alp], WALLET, DEADLINE], ethAmt(i, 3n * 10n ** 16n), forkRouter),
    );

    // Non-trade: another wallet's swap that pays out to ours (not our trade: we did not send it).
    if (i % 3 === 0) {
      await d.send(OTHER, v2Router, R, 'swapExactETHForTokens', [0n, [weth, alp], WALLET, DEADLINE], 10n ** 17n, 1_500_000n);
      nt('others-swap-to-wallet');
    }
    // Non-trade: a failed swap of the wallet (reverted: no logs, no trade).
    if (i % 6 === 5) {
      const r = await d.sendRaw(
        WALLET,
        v2Router,
        encodeFunctionData({ abi: R.abi, functionName: 'swapExactETHForTokens', args: [MAX, [weth, alp], WALLET, DEADLINE] } as never),
        10n ** 16n,
        500_000n,
      );
      if (r.status !== '0x0') throw new Error('expected a revert');
      nt('failed-swap');
    }
    if (i % 4 === 1) {
      await d.sendRaw(WALLET, OTHER, '0x', 10n ** 15n);
      nt('eth-transfer');
    }

    if (aa) {
      const acct = aa.account;
      const v = ethAmt(i, 10n ** 16n);
      const T2 = i % 2 === 0 ? alp : uni;
      const buy = encodeFunctionData({ abi: R.abi, functionName: 'swapExactETHForTokens', args: [0n, [weth, T2], acct, DEADLINE] } as never);
      await swap('aa-buy', 'uniswap-v2', [{ side: 'buy', token: T2 }], poolFor[T2], () => aa!.op(execute(v2Router, v, buy)), { trader: acct, into: aaTruth });
      const held = await balanceOf(T2, acct);
      const sell = encodeFunctionData({ abi: R.abi, functionName: 'swapExactTokensForETH', args: [held / 3n, 0n, [T2, weth], acct, DEADLINE] } as never);
      await swap('aa-sell', 'uniswap-v2', [{ side: 'sell', token: T2 }], poolFor[T2], () => aa!.op(execute(v2Router, 0n, sell)), {
        trader: acct,
        into: aaTruth,
      });
    }

    if (i % o.clusterSize === o.clusterSize - 1 && i < o.rounds - 1) await d.mine(o.gapBlocks);
  }
  // A few blocks on top so `safe` (one epoch behind with --slots-in-an-epoch 1) covers the last trade.
  await d.mine(5);
  const lastBlock = Number(BigInt(await d.rpc.call<string>('eth_blockNumber')));

  /** One more exact-in buy after the build (for confirmation-point and refresh tests); mines nothing after it. */
  async function extraBuy(): Promise<GroundTruthTrade> {
    const into: GroundTruthTrade[] = [];
    await swap(
      'v2-buy-exact-in',
      'uniswap-v2',
      [{ side: 'buy', token: alp }],
      pools.alp,
      v2('swapExactETHForTokens', [0n, [weth, alp], WALLET, DEADLINE], 123_456_789n * 10n ** 6n),
      { into },
    );
    return into[0];
  }

  return {
    extraBuy,
    aaWallet: aa?.account ?? null,
    groundTruth: sortNewestFirst(truth),
    aaGroundTruth: sortNewestFirst(aaTruth),
    nonTrades,
    addresses: {
      weth,
      v2Factory,
      v2Router,
      forkFactory,
      v3Factory,
      v3Router,
      entryPoint,
      tokens: { ...Object.fromEntries(Object.entries(SYMBOL).map(([a, s]) => [s, a])) },
    } as ScenarioAddresses,
    firstBlock,
    lastBlock,
  };
}

/** SimpleAccount.execute(dest, value, func). */
export function execute(dest: string, value: bigint, data: Hex): Hex {
  return encodeFunctionData({
    abi: ARTIFACTS.simpleAccount().abi,
    functionName: 'execute',
    args: [dest, value, data],
  } as never);
}

/**
 * EntryPoint 0.8 and a SimpleAccount (created through its factory by the first operation's
 * initCode, as 0.8's factory only lets the EntryPoint's SenderCreator call createAccount). A
 * bundler account submits each operation with handleOps.
 */
export async function setupAccount(d: ChainDriver, router: string, tokens: string[], onEntryPoint: (ep: string) => void) {
  const EP = ARTIFACTS.entryPoint();
  const F = ARTIFACTS.simpleAccountFactory();
  const S = ARTIFACTS.simpleAccount();
  const entryPoint = (await d.deploy(DEPLOYER, EP)).toLowerCase();
  onEntryPoint(entryPoint);
  const factory = (await d.deploy(DEPLOYER, F, [entryPoint])).toLowerCase();
  const owner = privateKeyToAccount(AA_OWNER_KEY);
  const account = ((await d.read<string>(factory, F, 'getAddress', [owner.address, 0n])) as string).toLowerCase();
  await d.sendRaw(DEPLOYER, account, '0x', 50n * E18);
  let deployed = false;
  let nonce = 0n;
  const gasLimits = concat([pad(toHex(2_000_000n), { size: 16 }), pad(toHex(2_000_000n), { size: 16 })]);
  const gasFees = concat([pad(toHex(10n ** 9n), { size: 16 }), pad(toHex(5n * 10n ** 9n), { size: 16 })]);

  async function op(callData: Hex): Promise<Receipt> {
    const initCode = deployed
      ? '0x'
      : concat([factory as Hex, encodeFunctionData({ abi: F.abi, functionName: 'createAccount', args: [owner.address, 0n] } as never)]);
    const userOp = {
      sender: account,
      nonce,
      initCode,
      callData,
      accountGasLimits: gasLimits,
      preVerificationGas: 100_000n,
      gasFees,
      paymasterAndData: '0x' as Hex,
      signature: '0x' as Hex,
    };
    const hash = (await d.read<Hex>(entryPoint, EP, 'getUserOpHash', [userOp])) as Hex;
    userOp.signature = serializeSignature(await sign({ hash, privateKey: AA_OWNER_KEY }));
    const r = await d.send(BUNDLER, entryPoint, EP, 'handleOps', [[userOp], BUNDLER], 0n, 6_000_000n);
    deployed = true;
    nonce += 1n;
    return r;
  }
  // Approvals for sells, in one operation (a non-trade of the account).
  const calls = tokens.map((t) => ({
    target: t,
    value: 0n,
    data: encodeFunctionData({ abi: ARTIFACTS.erc20Fixed().abi, functionName: 'approve', args: [router, 2n ** 256n - 1n] } as never),
  }));
  await op(encodeFunctionData({ abi: S.abi, functionName: 'executeBatch', args: [calls] } as never));
  return { account, op };
}

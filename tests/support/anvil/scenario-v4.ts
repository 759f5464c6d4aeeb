import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { concat, encodeAbiParameters, encodeFunctionData, encodePacked, keccak256, parseAbi, toHex, type Abi, type Hex } from 'viem';
import { formatUnits } from '../../../src/lib/core/decimal.js';
import { isoFromUnixSeconds, type SourceTrade } from '../../../src/lib/core/trade.js';
import { toChecksumAddress } from '../../../src/lib/chains/evm/address.js';
import { startAnvil } from './anvil.js';
import { compileSolidity } from './compile.js';
import { createDelegatedAccount, createSafe } from './accounts.js';
import { ARTIFACTS, createChainDriver, type Artifact, type ChainDriver, type Receipt } from './contracts.js';
import { execute, setupAccount } from './scenario.js';

/**
 * A chain on anvil with Uniswap V4 (v4-core's PoolManager driven through its PoolSwapTest
 * router), a second PoolManager absent from the chain's table (an unknown V4 fork), Balancer V2's
 * Vault with a weighted WETH/CHR pool, and the Universal Router 2.0 (Permit2 placed at its
 * canonical address) for mixed V2 -> V4 routes and V4 multi-hop through native ETH, and two
 * hooked V4 pools whose hooks (hooks/TestHooks.sol, compiled here with the pinned solc) take a fee
 * on top of the swap (HookFee) or replace the curve (HookSwap). A wallet trades on all of them,
 * interleaved with things that are not its trades.
 *
 * Ground truth comes from balances only: the wallet's token `balanceOf` before and after, the
 * PoolManager's ETH balance or the Vault's WETH balance before and after (the venue's native
 * figure), cross-checked against the wallet's ETH change net of gas. Never from logs.
 */

const require = createRequire(import.meta.url);

function foundry(id: string): Artifact {
  const j = require(id) as { abi: Abi; bytecode: { object: string } };
  return { abi: j.abi, bytecode: j.bytecode.object as Hex };
}

function balancer(task: string, name: string): Artifact {
  const base = `@balancer-labs/v2-deployments/dist/tasks/${task}`;
  try {
    const j = require(`${base}/artifact/${name}.json`) as { abi: Abi; bytecode: string };
    return { abi: j.abi, bytecode: j.bytecode as Hex };
  } catch {
    const abi = require(`${base}/abi/${name}.json`) as Abi;
    const code = (require(`${base}/bytecode/${name}.json`) as { creationCode: string }).creationCode;
    return { abi, bytecode: (code.startsWith('0x') ? code : '0x' + code) as Hex };
  }
}

const V4 = {
  poolManager: () => foundry('@uniswap/v4-core/out/PoolManager.sol/PoolManager.json'),
  swapTest: () => foundry('@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json'),
  liquidityTest: () => foundry('@uniswap/v4-core/out/PoolModifyLiquidityTest.sol/PoolModifyLiquidityTest.json'),
};

const E18 = 10n ** 18n;
const MAX = 2n ** 256n - 1n;
const DEADLINE = 2n ** 40n;
const NATIVE = '0x0000000000000000000000000000000000000000';
// TickMath.MIN_SQRT_PRICE + 1 and MAX_SQRT_PRICE - 1: no price limit.
const MIN_LIMIT = 4295128739n + 1n;
const MAX_LIMIT = 1461446703485210103287273052203988822378723970342n - 1n;
const PRICE_ONE = 1n << 96n;
// Full range for tick spacing 60.
const TICK_LOWER = -887220;
const TICK_UPPER = 887220;

// anvil's default dev accounts (unlocked).
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const OTHER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
// anvil's development accounts #7 (unlocked: the Safe's owner), #5 (the EIP-7702 account, by key)
// and #6 (its relayer, by key).
const SAFE_OWNER = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';
const DELEGATED_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba' as Hex;
const RELAYER_KEY = '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e' as Hex;

export type V4TradeKind =
  | 'v4-buy-exact-in'
  | 'v4-buy-exact-out'
  | 'v4-sell-exact-in'
  | 'v4-sell-exact-out'
  | 'v4-erc20-erc20'
  | 'v4-fork-buy'
  | 'v4-fee-hook-buy'
  | 'v4-fee-hook-buy-exact-out'
  | 'v4-fee-hook-sell'
  | 'v4-curve-hook-buy'
  | 'v4-curve-hook-sell'
  | 'v4-silent-hook-sell'
  | 'v4-silent-hook-buy-exact-out'
  | 'v4-treasury-hook-sell'
  | 'v4-treasury-hook-buy-exact-out'
  | 'balancer-buy-eth'
  | 'balancer-sell-eth'
  | 'balancer-buy-weth'
  | 'balancer-sell-weth'
  | 'ur-v3-unwrap-v4'
  | 'ur-v4-wrap-v2'
  | 'ur-v4-multihop-native'
  | 'ur-v2-buy-wrap'
  | 'ur-v3-sell-unwrap'
  | 'aa-v4-buy'
  | 'aa-v4-sell'
  | 'safe-v4-buy'
  | 'safe-v4-sell'
  | 'eip7702-v4-buy'
  | 'eip7702-v4-erc20-erc20';

export interface V4GroundTruthTrade extends SourceTrade {
  kind: V4TradeKind;
  /**
   * A hook that emitted nothing: the Swap event's figure (the PoolManager's own ETH change), what
   * a source without call traces gives (decisions.md); absent where it equals `amountSol`.
   */
  amountSolWithoutTraces?: string;
}

export interface V4Scenario {
  rpcUrl: string;
  chainId: number;
  wallet: string;
  /** Newest first, legs in order, as the source must deliver them. */
  groundTruth: V4GroundTruthTrade[];
  /** ERC-4337 SimpleAccount whose V4 swaps a bundler submits, and its trades. */
  aaWallet: string;
  aaGroundTruth: V4GroundTruthTrade[];
  /** A Safe whose owner sends its V4 swaps, and its trades. */
  safeWallet: string;
  safeGroundTruth: V4GroundTruthTrade[];
  /** An EIP-7702 account whose V4 swaps a relayer sends to its address, and its trades. */
  delegatedWallet: string;
  delegatedGroundTruth: V4GroundTruthTrade[];
  nonTrades: Record<string, number>;
  addresses: {
    weth: string;
    poolManager: string;
    forkPoolManager: string;
    vault: string;
    v2Factory: string;
    v3Factory: string;
    universalRouter: string;
    positionManager: string;
  };
  /** EVM_CHAINS_FILE entry for this chain. */
  chainsFileEntry(slug: string): Record<string, unknown>;
  stop(): Promise<void>;
}

export async function buildV4Scenario(options: { chainId?: number; rounds?: number } = {}): Promise<V4Scenario> {
  // Prague: the EIP-7702 account's authorization (V4 needs Cancun's transient storage, which Prague keeps).
  const node = await startAnvil({ chainId: options.chainId ?? 31339, keepHistory: true, hardfork: 'prague' });
  try {
    const m = await script(createChainDriver(node.url), options.rounds ?? 2, node.url, node.chainId);
    return {
      rpcUrl: node.url,
      chainId: node.chainId,
      wallet: WALLET,
      groundTruth: newestFirst(m.truth),
      aaWallet: m.aaWallet,
      aaGroundTruth: newestFirst(m.truthOf(m.aaWallet)),
      safeWallet: m.safeWallet,
      safeGroundTruth: newestFirst(m.truthOf(m.safeWallet)),
      delegatedWallet: m.delegatedWallet,
      delegatedGroundTruth: newestFirst(m.truthOf(m.delegatedWallet)),
      nonTrades: m.nonTrades,
      addresses: m.addresses,
      chainsFileEntry: (slug) => ({
        slug,
        chainId: node.chainId,
        rpcUrl: node.url,
        nativeSymbol: 'ETH',
        wrappedNative: toChecksumAddress(m.addresses.weth),
        explorerUrl: 'http://127.0.0.1/tx/{signature}',
        confirmation: 'latest',
        entryPoints: [m.addresses.entryPoint],
        dexes: [
          { name: 'uniswap-v4', kind: 'v4', poolManager: m.addresses.poolManager, positionManager: m.addresses.positionManager },
          { name: 'balancer-v2', kind: 'balancer-v2', vault: m.addresses.vault },
          { name: 'uniswap-v2', kind: 'v2', factory: m.addresses.v2Factory },
          { name: 'uniswap-v3', kind: 'v3', factory: m.addresses.v3Factory },
        ],
      }),
      stop: () => node.stop(),
    };
  } catch (e) {
    await node.stop();
    throw e;
  }
}

interface PoolKey {
  currency0: string;
  currency1: string;
  fee: number;
  tickSpacing: number;
  hooks: string;
}

async function script(d: ChainDriver, rounds: number, rpcUrl: string, chainId: number) {
  const erc20 = ARTIFACTS.erc20Fixed();
  const wethA = ARTIFACTS.weth9();
  const pmA = V4.poolManager();
  const swapA = V4.swapTest();
  const liqA = V4.liquidityTest();

  // --- Deploy ---------------------------------------------------------------------------------
  const weth = (await d.deploy(DEPLOYER, wethA)).toLowerCase();
  const supply = 10n ** 9n * E18;
  const alp = (await d.deploy(DEPLOYER, erc20, ['Alpha', 'ALP', supply, DEPLOYER])).toLowerCase();
  const brv = (await d.deploy(DEPLOYER, erc20, ['Bravo', 'BRV', supply, DEPLOYER])).toLowerCase();
  const chr = (await d.deploy(DEPLOYER, erc20, ['Charlie', 'CHR', supply, DEPLOYER])).toLowerCase();
  const SYMBOL: Record<string, string> = { [alp]: 'ALP', [brv]: 'BRV', [chr]: 'CHR', [weth]: 'WETH' };

  const pm = (await d.deploy(DEPLOYER, pmA, [DEPLOYER])).toLowerCase();
  const swapper = (await d.deploy(DEPLOYER, swapA, [pm])).toLowerCase();
  const liq = (await d.deploy(DEPLOYER, liqA, [pm])).toLowerCase();
  const forkPm = (await d.deploy(DEPLOYER, pmA, [DEPLOYER])).toLowerCase();
  const forkSwapper = (await d.deploy(DEPLOYER, swapA, [forkPm])).toLowerCase();
  const forkLiq = (await d.deploy(DEPLOYER, liqA, [forkPm])).toLowerCase();

  const key = (a: string, b: string, fee = 3000): PoolKey => {
    const [c0, c1] = BigInt(a) < BigInt(b) ? [a, b] : [b, a];
    return { currency0: c0, currency1: c1, fee, tickSpacing: 60, hooks: NATIVE };
  };
  const ethAlp = key(NATIVE, alp);
  const ethBrv = key(NATIVE, brv);
  const alpBrv = key(alp, brv);
  const ethChr = key(NATIVE, chr);

  for (const t of [alp, brv, chr]) {
    for (const spender of [liq, forkLiq]) await d.send(DEPLOYER, t, erc20, 'approve', [spender, MAX]);
  }
  /** Full-range liquidity at price 1: about `l` of each currency (native paid with the call, the excess refunded). */
  const addLiquidity = async (from: string, router: string, k: PoolKey, l: bigint, salt = 0n) =>
    d.send(
      from,
      router,
      liqA,
      'modifyLiquidity',
      [k, { tickLower: TICK_LOWER, tickUpper: TICK_UPPER, liquidityDelta: l, salt: ('0x' + salt.toString(16).padStart(64, '0')) as Hex }, '0x'],
      k.currency0 === NATIVE ? (l > 0n ? l + l / 10n : 0n) : 0n,
      3_000_000n,
    );
  for (const k of [ethAlp, ethBrv, alpBrv]) {
    await d.send(DEPLOYER, pm, pmA, 'initialize', [k, PRICE_ONE], 0n, 3_000_000n);
    await addLiquidity(DEPLOYER, liq, k, 200n * E18);
  }
  // Hooks: the PoolManager reads a hook's permissions from the low 14 bits of its address, so
  // each is deployed, then its code (the PoolManager address is an immutable inside it) placed
  // at an address carrying its flags: 0x44 = AFTER_SWAP | AFTER_SWAP_RETURNS_DELTA, 0x88 =
  // BEFORE_SWAP | BEFORE_SWAP_RETURNS_DELTA.
  const hookArtifacts = compileSolidity(new URL('./hooks/TestHooks.sol', import.meta.url));
  const placeHook = async (name: string, at: string, args: unknown[] = []) => {
    const deployed = await d.deploy(DEPLOYER, hookArtifacts[name], [pm, ...args]);
    await d.rpc.call('anvil_setCode', [at, await d.rpc.call<Hex>('eth_getCode', [deployed, 'latest'])]);
    return at;
  };
  const feeHook = await placeHook('FeeHook', '0x1111000000000000000000000000000000000044', [true]);
  const curveHook = await placeHook('CurveHook', '0x2222000000000000000000000000000000000088');
  const silentHook = await placeHook('FeeHook', '0x3333000000000000000000000000000000000044', [false]);
  // Its fee goes to a third address: neither the wallet's route nor the hook.
  const treasury = '0x7777000000000000000000000000000000000077';
  const treasuryHook = await placeHook('TreasuryFeeHook', '0x4444000000000000000000000000000000000044', [treasury]);
  const feeEthAlp: PoolKey = { ...ethAlp, hooks: feeHook };
  const curveEthBrv: PoolKey = { ...ethBrv, hooks: curveHook };
  const silentEthChr: PoolKey = { ...key(NATIVE, chr), hooks: silentHook };
  const treasuryEthAlp: PoolKey = { ...ethAlp, hooks: treasuryHook };
  for (const k of [feeEthAlp, silentEthChr, treasuryEthAlp]) {
    await d.send(DEPLOYER, pm, pmA, 'initialize', [k, PRICE_ONE], 0n, 3_000_000n);
    await addLiquidity(DEPLOYER, liq, k, 200n * E18);
  }
  // The curve pool holds no liquidity: the hook pays from its own reserves.
  await d.send(DEPLOYER, pm, pmA, 'initialize', [curveEthBrv, PRICE_ONE], 0n, 3_000_000n);
  await d.rpc.call('anvil_setBalance', [curveHook, toHex(1_000n * E18)]);
  await d.send(DEPLOYER, brv, erc20, 'transfer', [curveHook, 1_000n * E18]);
  await d.send(DEPLOYER, forkPm, pmA, 'initialize', [ethChr, PRICE_ONE], 0n, 3_000_000n);
  await addLiquidity(DEPLOYER, forkLiq, ethChr, 200n * E18);

  // Balancer V2: Authorizer, Vault (it wraps ETH with our WETH), a 50/50 weighted WETH/CHR pool.
  const authA = balancer('20210418-authorizer', 'Authorizer');
  const vaultA = balancer('20210418-vault', 'Vault');
  const wpfA = balancer('20210418-weighted-pool', 'WeightedPoolFactory');
  const wpA = balancer('20210418-weighted-pool', 'WeightedPool');
  const auth = await d.deploy(DEPLOYER, authA, [DEPLOYER]);
  const vault = (await d.deploy(DEPLOYER, vaultA, [auth, weth, 0n, 0n])).toLowerCase();
  const wpf = await d.deploy(DEPLOYER, wpfA, [vault]);
  const [b0, b1] = BigInt(weth) < BigInt(chr) ? [weth, chr] : [chr, weth];
  const created = await d.send(DEPLOYER, wpf, wpfA, 'create', ['W', 'W', [b0, b1], [E18 / 2n, E18 / 2n], 3n * 10n ** 15n, NATIVE], 0n, 8_000_000n);
  const createdLogs = await d.rpc.call<Array<{ address: string; topics: Hex[] }>>('eth_getLogs', [
    { fromBlock: created.blockNumber, toBlock: created.blockNumber, address: wpf },
  ]);
  const wPool = ('0x' + createdLogs[0].topics[1].slice(26)) as Hex;
  const poolId = (await d.read<Hex>(wPool, wpA, 'getPoolId')) as Hex;
  await d.send(DEPLOYER, weth, wethA, 'deposit', [], 500n * E18);
  for (const t of [weth, chr]) await d.send(DEPLOYER, t, erc20, 'approve', [vault, MAX]);
  const initAmounts = [500n * E18, 500n * E18];
  await d.send(
    DEPLOYER,
    vault,
    vaultA,
    'joinPool',
    [
      poolId,
      DEPLOYER,
      DEPLOYER,
      {
        assets: [b0, b1],
        maxAmountsIn: initAmounts,
        userData: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256[]' }], [0n, initAmounts]),
        fromInternalBalance: false,
      },
    ],
    0n,
    8_000_000n,
  );

  // Universal Router 2.0 over Permit2 (its runtime code from v4-periphery's DeployPermit2.sol),
  // a V2 pair and a V3 pool ALP/WETH at price 1, and the V4 PoolManager above.
  await d.rpc.call('anvil_setCode', [PERMIT2, permit2RuntimeCode()]);
  const v2FactoryA = ARTIFACTS.v2Factory();
  const v2PairA = ARTIFACTS.v2Pair();
  const v3FactoryA = ARTIFACTS.v3Factory();
  const v3PosA = ARTIFACTS.v3Positions();
  const v2Factory = (await d.deploy(DEPLOYER, v2FactoryA, [DEPLOYER])).toLowerCase();
  const v3Factory = (await d.deploy(DEPLOYER, v3FactoryA)).toLowerCase();
  const v3Pos = (await d.deploy(DEPLOYER, v3PosA, [v3Factory, weth, NATIVE])).toLowerCase();
  const urA = universalRouterArtifact();
  const ur = (
    await d.deploy(DEPLOYER, urA, [
      {
        permit2: PERMIT2,
        weth9: weth,
        v2Factory,
        v3Factory,
        pairInitCodeHash: keccak256(v2PairA.bytecode),
        poolInitCodeHash: keccak256(v3PoolBytecode()),
        v4PoolManager: pm,
        v3NFTPositionManager: v3Pos,
        v4PositionManager: NATIVE,
      },
    ])
  ).toLowerCase();
  await d.send(DEPLOYER, weth, wethA, 'deposit', [], 700n * E18);
  await d.send(DEPLOYER, v2Factory, v2FactoryA, 'createPair', [alp, weth], 0n, 6_000_000n);
  const v2Pair = ((await d.read<string>(v2Factory, v2FactoryA, 'getPair', [alp, weth])) as string).toLowerCase();
  await d.send(DEPLOYER, alp, erc20, 'transfer', [v2Pair, 300n * E18]);
  await d.send(DEPLOYER, weth, erc20, 'transfer', [v2Pair, 300n * E18]);
  await d.send(DEPLOYER, v2Pair, v2PairA, 'mint', [DEPLOYER], 0n, 6_000_000n);
  const [v0, v1] = BigInt(alp) < BigInt(weth) ? [alp, weth] : [weth, alp];
  await d.send(DEPLOYER, v3Pos, v3PosA, 'createAndInitializePoolIfNecessary', [v0, v1, 3000, PRICE_ONE], 0n, 6_000_000n);
  for (const t of [alp, weth]) await d.send(DEPLOYER, t, erc20, 'approve', [v3Pos, MAX]);
  await d.send(
    DEPLOYER,
    v3Pos,
    v3PosA,
    'mint',
    [
      {
        token0: v0,
        token1: v1,
        fee: 3000,
        tickLower: TICK_LOWER,
        tickUpper: TICK_UPPER,
        amount0Desired: 300n * E18,
        amount1Desired: 300n * E18,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: DEPLOYER,
        deadline: DEADLINE,
      },
    ],
    0n,
    6_000_000n,
  );
  const v3Pool = ((await d.read<string>(v3Factory, v3FactoryA, 'getPool', [alp, weth, 3000])) as string).toLowerCase();
  const posmA = foundry('@uniswap/v4-periphery/foundry-out/PositionManager.sol/PositionManager.json');
  const posm = (await d.deploy(DEPLOYER, posmA, [pm, PERMIT2, 100_000n, NATIVE, weth])).toLowerCase();

  // --- Wallet setup (not trades) ----------------------------------------------------------------
  const nonTrades: Record<string, number> = {};
  const nt = (k: string) => (nonTrades[k] = (nonTrades[k] ?? 0) + 1);
  for (const t of [alp, brv, chr]) {
    await d.send(DEPLOYER, t, erc20, 'transfer', [WALLET, 100_000n * E18]);
    await d.send(DEPLOYER, t, erc20, 'transfer', [OTHER, 10_000n * E18]);
    nt('transfer-in');
    for (const spender of [swapper, forkSwapper, liq, vault]) {
      await d.send(WALLET, t, erc20, 'approve', [spender, MAX]);
      nt('approval');
    }
  }
  for (const t of [alp, brv]) {
    await d.send(WALLET, t, erc20, 'approve', [PERMIT2, MAX]);
    await d.send(WALLET, PERMIT2, { abi: PERMIT2_ABI, bytecode: '0x' }, 'approve', [t, ur, 2n ** 160n - 1n, 2n ** 48n - 1n]);
    nt('approval');
  }
  // A V4 position of the wallet in ETH/ALP through the PositionManager (a liquidity add, not a
  // trade): this pool's key is then known to the PositionManager's poolKeys.
  await d.send(WALLET, PERMIT2, { abi: PERMIT2_ABI, bytecode: '0x' }, 'approve', [alp, posm, 2n ** 160n - 1n, 2n ** 48n - 1n]);
  await d.send(
    WALLET,
    posm,
    posmA,
    'modifyLiquidities',
    [
      v4Actions([
        [MINT_POSITION, enc(MINT_P, [ethAlp, TICK_LOWER, TICK_UPPER, 10n * E18, 20n * E18, 20n * E18, WALLET, '0x'])],
        [SETTLE_PAIR, enc([{ type: 'address' }, { type: 'address' }], [NATIVE, alp])],
        [SWEEP, enc([{ type: 'address' }, { type: 'address' }], [NATIVE, WALLET])],
      ]),
      DEADLINE,
    ],
    20n * E18,
    3_000_000n,
  );
  nt('v4-position-mint');
  await d.send(WALLET, weth, wethA, 'deposit', [], 50n * E18);
  await d.send(WALLET, weth, erc20, 'approve', [vault, MAX]);
  await d.send(OTHER, chr, erc20, 'approve', [vault, MAX]);

  const truth: V4GroundTruthTrade[] = [];
  const others = new Map<string, V4GroundTruthTrade[]>();
  const truthOf = (trader: string) => (trader === WALLET ? truth : (others.get(trader) ?? []));
  // The ERC-4337 account (EntryPoint 0.8, SimpleAccount) with ALP approved to PoolSwapTest.
  let entryPoint = '';
  const aa = await setupAccount(d, swapper, [alp], (ep) => (entryPoint = ep));
  await d.send(DEPLOYER, alp, erc20, 'transfer', [aa.account, 1_000n * E18]);
  nt('transfer-in');
  // A Safe (its owner sends the executions) and an EIP-7702 account (a relayer sends its calls),
  // both trading on the PoolManager through PoolSwapTest.
  const safe = await createSafe(d, DEPLOYER, SAFE_OWNER, 50n * E18);
  const approveSwapper = encodeFunctionData({ abi: erc20.abi, functionName: 'approve', args: [swapper, MAX] } as never);
  await safe.exec(alp, 0n, approveSwapper);
  nt('approval');
  const delegated = await createDelegatedAccount(d, { deployer: DEPLOYER, rpcUrl, chainId, key: DELEGATED_KEY, relayerKey: RELAYER_KEY, eth: 50n * E18 });
  await d.send(DEPLOYER, alp, erc20, 'transfer', [delegated.address, 1_000n * E18]);
  await delegated.relay([{ to: alp, value: 0n, data: approveSwapper }]);
  nt('approval');
  const balanceOf = async (token: string, who: string) => (await d.read<bigint>(token, erc20, 'balanceOf', [who])) as bigint;
  const abs = (v: bigint) => (v < 0n ? -v : v);

  /**
   * Runs one swap of the wallet and records its legs. Token amounts: the wallet's balanceOf
   * change. Native: the change of `native.of` (the PoolManager's ETH, or the Vault's WETH),
   * cross-checked against the wallet's ETH change net of gas where the wallet paid or got ETH.
   */
  async function swap(
    kind: V4TradeKind,
    dex: string,
    legs: Array<{ side: 'buy' | 'sell'; token: string; native?: (() => Promise<bigint>) | bigint; dex?: string }>,
    native: { of: () => Promise<bigint>; walletEth: boolean; withoutTraces?: () => Promise<bigint> } | null,
    run: () => Promise<Receipt>,
    trader = WALLET,
  ) {
    const before = await Promise.all(legs.map((l) => balanceOf(l.token, trader)));
    // A leg's own venue measure (mixed routes): its venue's balance before and after, or a figure measured beforehand.
    const legBefore = await Promise.all(legs.map((l) => (typeof l.native === 'function' ? l.native() : 0n)));
    const nBefore = native ? await native.of() : 0n;
    const altBefore = native?.withoutTraces ? await native.withoutTraces() : 0n;
    const ethBefore = await d.ethBalance(trader);
    const r = await run();
    if (r.status !== '0x1') throw new Error(`${kind} reverted (${r.transactionHash})`);
    const after = await Promise.all(legs.map((l) => balanceOf(l.token, trader)));
    const nAfter = native ? await native.of() : 0n;
    const altAfter = native?.withoutTraces ? await native.withoutTraces() : 0n;
    const legAfter = await Promise.all(legs.map((l) => (typeof l.native === 'function' ? l.native() : 0n)));
    const ethAfter = await d.ethBalance(trader);
    const amountNative = native ? abs(nAfter - nBefore) : null;
    if (native?.walletEth) {
      const gas = BigInt(r.gasUsed) * BigInt(r.effectiveGasPrice);
      const walletNative = abs(ethAfter + gas - ethBefore);
      if (walletNative !== amountNative) throw new Error(`${kind}: wallet ETH change ${walletNative} != venue change ${amountNative}`);
    }
    const ts = await d.blockTimestamp(r.blockNumber);
    const position = `${String(Number(BigInt(r.blockNumber))).padStart(12, '0')}.${String(Number(BigInt(r.transactionIndex))).padStart(6, '0')}`;
    legs.forEach((l, i) => {
      if ((l.side === 'buy') !== after[i] > before[i]) throw new Error(`${kind}: leg ${i} moved the wrong way`);
      if (trader !== WALLET && !others.has(trader)) others.set(trader, []);
      (trader === WALLET ? truth : others.get(trader)!).push({
        kind,
        signature: r.transactionHash.toLowerCase(),
        side: l.side,
        token: SYMBOL[l.token],
        tokenMint: toChecksumAddress(l.token),
        amountSol:
          l.native === undefined
            ? amountNative === null
              ? null
              : formatUnits(amountNative, 18)
            : formatUnits(typeof l.native === 'bigint' ? l.native : abs(legAfter[i] - legBefore[i]), 18),
        amount: formatUnits(abs(after[i] - before[i]), 18),
        dex: l.dex ?? dex,
        blockTime: isoFromUnixSeconds(ts),
        position,
        leg: i,
        ...(native?.withoutTraces ? { amountSolWithoutTraces: formatUnits(abs(altAfter - altBefore), 18) } : {}),
      });
    });
  }

  const pmEth = (manager: string) => () => d.ethBalance(manager);
  // A hooked pool's native figure is what left or reached the wallet's route: the PoolManager's
  // and the hook's ETH together (a hook's fee or its own reserves move between the two).
  const pmAndHookEth = (hook: string) => async () => (await d.ethBalance(pm)) + (await d.ethBalance(hook));
  const urExecute = (commands: Array<[number, Hex]>, value: bigint) =>
    d.sendRaw(
      WALLET,
      ur,
      encodeFunctionData({
        abi: urA.abi,
        functionName: 'execute',
        args: [concat(commands.map(([c]) => toHex(c, { size: 1 }))), commands.map(([, i]) => i), DEADLINE],
      } as never),
      value,
      2_000_000n,
    );
  const vaultWeth = () => balanceOf(weth, vault);
  const v4swapData = (k: PoolKey, zeroForOne: boolean, amountSpecified: bigint) =>
    encodeCall(swapA, 'swap', [
      k,
      { zeroForOne, amountSpecified, sqrtPriceLimitX96: zeroForOne ? MIN_LIMIT : MAX_LIMIT },
      { takeClaims: false, settleUsingBurn: false },
      '0x',
    ]);
  const v4swap = (router: string, k: PoolKey, zeroForOne: boolean, amountSpecified: bigint, value = 0n, from = WALLET) =>
    d.sendRaw(from, router, v4swapData(k, zeroForOne, amountSpecified), value, 1_000_000n);
  const balSwap = (assetIn: string, assetOut: string, amount: bigint, value = 0n, from = WALLET, recipient = WALLET) =>
    d.sendRaw(
      from,
      vault,
      encodeCall(vaultA, 'swap', [
        { poolId, kind: 0, assetIn, assetOut, amount, userData: '0x' },
        { sender: from, fromInternalBalance: false, recipient, toInternalBalance: false },
        0n,
        DEADLINE,
      ]),
      value,
      1_000_000n,
    );

  for (let round = 0; round < rounds; round++) {
    const s = BigInt(round + 1);
    // V4, native ETH (amountSpecified < 0: exact in; > 0: exact out). ETH is currency0.
    await swap('v4-buy-exact-in', 'uniswap-v4', [{ side: 'buy', token: alp }], { of: pmEth(pm), walletEth: true }, () =>
      v4swap(swapper, ethAlp, true, -(s * E18) / 2n, (s * E18) / 2n),
    );
    await swap('v4-buy-exact-out', 'uniswap-v4', [{ side: 'buy', token: brv }], { of: pmEth(pm), walletEth: true }, () =>
      // 3 BRV out; 5 ETH sent, the excess comes back (PoolSwapTest refunds its balance).
      v4swap(swapper, ethBrv, true, 3n * E18 + s, 5n * E18),
    );
    await d.send(WALLET, alp, erc20, 'transfer', [OTHER, 7n * E18 + s]);
    nt('transfer-out');
    await swap('v4-sell-exact-in', 'uniswap-v4', [{ side: 'sell', token: alp }], { of: pmEth(pm), walletEth: true }, () =>
      v4swap(swapper, ethAlp, false, -(2n * E18 + s)),
    );
    await swap('v4-sell-exact-out', 'uniswap-v4', [{ side: 'sell', token: brv }], { of: pmEth(pm), walletEth: true }, () =>
      v4swap(swapper, ethBrv, false, E18 / 4n + s),
    );
    // Liquidity added and removed by the wallet: tokens move to and from the PoolManager, no swap.
    await addLiquidity(WALLET, liq, alpBrv, 5n * E18, s);
    nt('v4-liquidity-add');
    await addLiquidity(WALLET, liq, alpBrv, -5n * E18, s);
    nt('v4-liquidity-remove');
    const [alpIsZero] = [alpBrv.currency0 === alp];
    await swap(
      'v4-erc20-erc20',
      'uniswap-v4',
      [
        { side: 'sell', token: alp },
        { side: 'buy', token: brv },
      ],
      null,
      () => v4swap(swapper, alpBrv, alpIsZero, -(E18 + s)),
    );
    await swap('v4-fork-buy', 'unknown-v4-fork', [{ side: 'buy', token: chr }], { of: pmEth(forkPm), walletEth: true }, () =>
      v4swap(forkSwapper, ethChr, true, -(E18 / 3n + s), E18 / 3n + s),
    );
    // Hooked pools: a 1% fee on the unspecified side (ALP out, ETH out, ETH in for exact-out),
    // and a hook's own curve (the pool's Swap shows 0 and 0).
    await swap('v4-fee-hook-buy', 'uniswap-v4', [{ side: 'buy', token: alp }], { of: pmAndHookEth(feeHook), walletEth: true }, () =>
      v4swap(swapper, feeEthAlp, true, -(E18 + s), E18 + s),
    );
    await swap('v4-fee-hook-buy-exact-out', 'uniswap-v4', [{ side: 'buy', token: alp }], { of: pmAndHookEth(feeHook), walletEth: true }, () =>
      v4swap(swapper, feeEthAlp, true, 2n * E18 + s, 3n * E18),
    );
    await swap('v4-fee-hook-sell', 'uniswap-v4', [{ side: 'sell', token: alp }], { of: pmAndHookEth(feeHook), walletEth: true }, () =>
      v4swap(swapper, feeEthAlp, false, -(3n * E18 + s)),
    );
    await swap('v4-curve-hook-buy', 'uniswap-v4', [{ side: 'buy', token: brv }], { of: pmAndHookEth(curveHook), walletEth: true }, () =>
      v4swap(swapper, curveEthBrv, true, -(E18 / 2n + s), E18 / 2n + s),
    );
    await swap('v4-curve-hook-sell', 'uniswap-v4', [{ side: 'sell', token: brv }], { of: pmAndHookEth(curveHook), walletEth: true }, () =>
      v4swap(swapper, curveEthBrv, false, -(E18 + s)),
    );
    // A hook that takes its fee in ETH and says nothing: the call trace gives the wallet's figure.
    const silent = { of: pmAndHookEth(silentHook), walletEth: true, withoutTraces: pmEth(pm) };
    await swap('v4-silent-hook-sell', 'uniswap-v4', [{ side: 'sell', token: chr }], silent, () => v4swap(swapper, silentEthChr, false, -(2n * E18 + s)));
    await swap('v4-silent-hook-buy-exact-out', 'uniswap-v4', [{ side: 'buy', token: chr }], silent, () =>
      v4swap(swapper, silentEthChr, true, E18 + s, 2n * E18),
    );
    // The same fee paid to a treasury: the venue's figure is the PoolManager's, the hook's and the
    // treasury's ETH together (what left or reached the wallet's route); without traces, the Swap
    // event's figure (the PoolManager's own change).
    const toTreasury = {
      of: async () => (await d.ethBalance(pm)) + (await d.ethBalance(treasuryHook)) + (await d.ethBalance(treasury)),
      walletEth: true,
      withoutTraces: pmEth(pm),
    };
    await swap('v4-treasury-hook-sell', 'uniswap-v4', [{ side: 'sell', token: alp }], toTreasury, () =>
      v4swap(swapper, treasuryEthAlp, false, -(2n * E18 + s)),
    );
    await swap('v4-treasury-hook-buy-exact-out', 'uniswap-v4', [{ side: 'buy', token: alp }], toTreasury, () =>
      v4swap(swapper, treasuryEthAlp, true, E18 + s, 2n * E18),
    );
    // The smart account's V4 swaps, bundled: the account is the trader (its ETH also pays the
    // operation's gas, so only the PoolManager's balance gives the native figure).
    await swap(
      'aa-v4-buy',
      'uniswap-v4',
      [{ side: 'buy', token: alp }],
      { of: pmEth(pm), walletEth: false },
      () => aa.op(execute(swapper, E18 / 5n + s, v4swapData(ethAlp, true, -(E18 / 5n + s)))),
      aa.account,
    );
    await swap(
      'aa-v4-sell',
      'uniswap-v4',
      [{ side: 'sell', token: alp }],
      { of: pmEth(pm), walletEth: false },
      () => aa.op(execute(swapper, 0n, v4swapData(ethAlp, false, -(3n * E18 + s)))),
      aa.account,
    );
    // The Safe and the EIP-7702 account. PoolSwapTest pays change and proceeds in ETH to its
    // caller, which MultiSendCallOnly (the 7702 account's code) cannot receive: that account buys
    // with the exact amount and sells into the ALP/BRV pool.
    const safeIn = E18 / 4n + s;
    await swap(
      'safe-v4-buy',
      'uniswap-v4',
      [{ side: 'buy', token: alp }],
      { of: pmEth(pm), walletEth: false },
      async () => d.receipt(await safe.exec(swapper, safeIn, v4swapData(ethAlp, true, -safeIn))),
      safe.address,
    );
    await swap(
      'safe-v4-sell',
      'uniswap-v4',
      [{ side: 'sell', token: alp }],
      { of: pmEth(pm), walletEth: false },
      async () => d.receipt(await safe.exec(swapper, 0n, v4swapData(ethAlp, false, -(E18 / 10n + s)))),
      safe.address,
    );
    const delegatedIn = E18 / 5n + s;
    await swap(
      'eip7702-v4-buy',
      'uniswap-v4',
      [{ side: 'buy', token: alp }],
      { of: pmEth(pm), walletEth: false },
      async () => d.receipt(await delegated.relay([{ to: swapper, value: delegatedIn, data: v4swapData(ethAlp, true, -delegatedIn) }])),
      delegated.address,
    );
    await swap(
      'eip7702-v4-erc20-erc20',
      'uniswap-v4',
      [
        { side: 'sell', token: alp },
        { side: 'buy', token: brv },
      ],
      null,
      async () => d.receipt(await delegated.relay([{ to: swapper, value: 0n, data: v4swapData(alpBrv, alpBrv.currency0 === alp, -(E18 / 2n + s)) }])),
      delegated.address,
    );
    // A reverted swap: too little ETH sent for an exact-in of 1 ETH.
    const bad = await v4swap(swapper, ethAlp, true, -E18, E18 / 2n);
    if (bad.status !== '0x0') throw new Error('the underpaid swap should revert');
    nt('reverted-swap');

    // Balancer V2: ETH (asset 0x0, the Vault wraps it) and WETH.
    await swap('balancer-buy-eth', 'balancer-v2', [{ side: 'buy', token: chr }], { of: vaultWeth, walletEth: true }, () =>
      balSwap(NATIVE, chr, E18 + s, E18 + s),
    );
    await swap('balancer-sell-eth', 'balancer-v2', [{ side: 'sell', token: chr }], { of: vaultWeth, walletEth: true }, () =>
      balSwap(chr, NATIVE, 2n * E18 + s),
    );
    await swap('balancer-buy-weth', 'balancer-v2', [{ side: 'buy', token: chr }], { of: vaultWeth, walletEth: false }, () => balSwap(weth, chr, E18 / 2n + s));
    await swap('balancer-sell-weth', 'balancer-v2', [{ side: 'sell', token: chr }], { of: vaultWeth, walletEth: false }, () => balSwap(chr, weth, E18 + s));
    // Another account's swap that pays the wallet: not the wallet's trade.
    const paid = await balSwap(chr, NATIVE, E18, 0n, OTHER, WALLET);
    if (paid.status !== '0x1') throw new Error('the other account’s swap reverted');
    nt('others-swap-paying-wallet');
    const paidToken = await balSwap(NATIVE, chr, E18 / 10n, E18 / 10n, OTHER, WALLET);
    if (paidToken.status !== '0x1') throw new Error('the other account’s swap reverted');
    nt('others-swap-paying-wallet');

    // Universal Router routes: each leg's native figure from its own venue's balance.
    const pmEthNow = pmEth(pm);
    const v3Weth = () => balanceOf(weth, v3Pool);
    const v2Weth = () => balanceOf(weth, v2Pair);
    await swap(
      'ur-v3-unwrap-v4',
      'uniswap-v3',
      [
        { side: 'sell', token: alp, native: v3Weth },
        { side: 'buy', token: brv, native: pmEthNow, dex: 'uniswap-v4' },
      ],
      null,
      () =>
        urExecute(
          [
            [V3_SWAP_EXACT_IN, enc(V3_IN, [ADDRESS_THIS, 3n * E18 + s, 0n, packed(['address', 'uint24', 'address'], [alp, 3000, weth]) as Hex, true])],
            [UNWRAP_WETH, enc(ADDR_UINT, [ADDRESS_THIS, 0n])],
            [
              V4_SWAP,
              v4Actions([
                [SETTLE, enc(SETTLE_P, [NATIVE, CONTRACT_BALANCE, false])],
                [SWAP_EXACT_IN_SINGLE, enc(EXACT_IN_SINGLE, [{ poolKey: ethBrv, zeroForOne: true, amountIn: 0n, amountOutMinimum: 0n, hookData: '0x' }])],
                [TAKE_ALL, enc(CURRENCY_AMOUNT, [brv, 0n])],
              ]),
            ],
          ],
          0n,
        ),
    );
    await swap(
      'ur-v4-wrap-v2',
      'uniswap-v4',
      [
        { side: 'sell', token: brv, native: pmEthNow },
        { side: 'buy', token: alp, native: v2Weth, dex: 'uniswap-v2' },
      ],
      null,
      () =>
        urExecute(
          [
            [
              V4_SWAP,
              v4Actions([
                [
                  SWAP_EXACT_IN_SINGLE,
                  enc(EXACT_IN_SINGLE, [{ poolKey: ethBrv, zeroForOne: false, amountIn: 2n * E18 + s, amountOutMinimum: 0n, hookData: '0x' }]),
                ],
                [SETTLE_ALL, enc(CURRENCY_AMOUNT, [brv, MAX])],
                [TAKE, enc(TAKE_P, [NATIVE, ADDRESS_THIS, 0n])],
              ]),
            ],
            [WRAP_ETH, enc(ADDR_UINT, [ADDRESS_THIS, CONTRACT_BALANCE])],
            [V2_SWAP_EXACT_IN, enc(V2_IN, [MSG_SENDER, CONTRACT_BALANCE, 0n, [weth, alp], false])],
          ],
          0n,
        ),
    );
    // ALP -> ETH -> BRV inside one PoolManager leaves no balance trace of the ETH middle leg:
    // measure the first hop alone on a snapshot (same state, same exact input), then revert.
    const hopIn = E18 + s;
    const snap = await d.rpc.call<string>('evm_snapshot', []);
    const pmBefore = await d.ethBalance(pm);
    const probe = await v4swap(swapper, ethAlp, false, -hopIn);
    if (probe.status !== '0x1') throw new Error('probe hop reverted');
    const middle = pmBefore - (await d.ethBalance(pm));
    await d.rpc.call('evm_revert', [snap]);
    await swap(
      'ur-v4-multihop-native',
      'uniswap-v4',
      [
        { side: 'sell', token: alp, native: middle },
        { side: 'buy', token: brv, native: middle },
      ],
      null,
      () =>
        urExecute(
          [
            [
              V4_SWAP,
              v4Actions([
                [
                  SWAP_EXACT_IN,
                  enc(EXACT_IN, [
                    {
                      currencyIn: alp,
                      path: [
                        { intermediateCurrency: NATIVE, fee: 3000, tickSpacing: 60, hooks: NATIVE, hookData: '0x' },
                        { intermediateCurrency: brv, fee: 3000, tickSpacing: 60, hooks: NATIVE, hookData: '0x' },
                      ],
                      amountIn: hopIn,
                      amountOutMinimum: 0n,
                    },
                  ]),
                ],
                [SETTLE_ALL, enc(CURRENCY_AMOUNT, [alp, MAX])],
                [TAKE_ALL, enc(CURRENCY_AMOUNT, [brv, 0n])],
              ]),
            ],
          ],
          0n,
        ),
    );
    await swap('ur-v2-buy-wrap', 'uniswap-v2', [{ side: 'buy', token: alp }], { of: v2Weth, walletEth: true }, () =>
      urExecute(
        [
          [WRAP_ETH, enc(ADDR_UINT, [ADDRESS_THIS, CONTRACT_BALANCE])],
          [V2_SWAP_EXACT_IN, enc(V2_IN, [MSG_SENDER, CONTRACT_BALANCE, 0n, [weth, alp], false])],
        ],
        E18 / 5n + s,
      ),
    );
    await swap('ur-v3-sell-unwrap', 'uniswap-v3', [{ side: 'sell', token: alp }], { of: v3Weth, walletEth: true }, () =>
      urExecute(
        [
          [V3_SWAP_EXACT_IN, enc(V3_IN, [ADDRESS_THIS, 4n * E18 + s, 0n, packed(['address', 'uint24', 'address'], [alp, 3000, weth]) as Hex, true])],
          [UNWRAP_WETH, enc(ADDR_UINT, [MSG_SENDER, 0n])],
        ],
        0n,
      ),
    );
    await d.mine(3);
  }
  return {
    truth,
    truthOf,
    aaWallet: aa.account,
    safeWallet: safe.address,
    delegatedWallet: delegated.address,
    nonTrades,
    addresses: { weth, poolManager: pm, forkPoolManager: forkPm, vault, v2Factory, v3Factory, universalRouter: ur, positionManager: posm, entryPoint },
  };
}

function newestFirst(ts: V4GroundTruthTrade[]): V4GroundTruthTrade[] {
  return [...ts].sort((a, b) => (a.position === b.position ? a.leg - b.leg : a.position < b.position ? 1 : -1));
}

function encodeCall(a: Artifact, functionName: string, args: unknown[]): Hex {
  return encodeFunctionData({ abi: a.abi, functionName, args } as never);
}

const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const PERMIT2_ABI = parseAbi(['function approve(address token, address spender, uint160 amount, uint48 expiration)']);

function permit2RuntimeCode(): Hex {
  const src = readFileSync(require.resolve('@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol'), 'utf8');
  const m = /hex"([0-9a-fA-F]+)"/.exec(src);
  if (!m) throw new Error('no Permit2 code in DeployPermit2.sol');
  return ('0x' + m[1]) as Hex;
}

function universalRouterArtifact(): Artifact {
  const j = require('@uniswap/universal-router/artifacts/contracts/UniversalRouter.sol/UniversalRouter.json') as { abi: Abi; bytecode: Hex };
  return { abi: j.abi, bytecode: j.bytecode };
}

function v3PoolBytecode(): Hex {
  return (require('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json') as { bytecode: Hex }).bytecode;
}

// Universal Router commands (contracts/libraries/Commands.sol) and V4 router actions
// (v4-periphery src/libraries/Actions.sol, ActionConstants.sol).
const V3_SWAP_EXACT_IN = 0x00;
const V2_SWAP_EXACT_IN = 0x08;
const WRAP_ETH = 0x0b;
const UNWRAP_WETH = 0x0c;
const V4_SWAP = 0x10;
const SWAP_EXACT_IN_SINGLE = 0x06;
const SWAP_EXACT_IN = 0x07;
const MINT_POSITION = 0x02;
const SETTLE_PAIR = 0x0d;
const SWEEP = 0x14;
const SETTLE = 0x0b;
const SETTLE_ALL = 0x0c;
const TAKE = 0x0e;
const TAKE_ALL = 0x0f;
const CONTRACT_BALANCE = 1n << 255n;
const MSG_SENDER = '0x0000000000000000000000000000000000000001';
const ADDRESS_THIS = '0x0000000000000000000000000000000000000002';

const V3_IN = [{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes' }, { type: 'bool' }] as const;
const V2_IN = [{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'address[]' }, { type: 'bool' }] as const;
const ADDR_UINT = [{ type: 'address' }, { type: 'uint256' }] as const;
const CURRENCY_AMOUNT = [{ type: 'address' }, { type: 'uint256' }] as const;
const SETTLE_P = [{ type: 'address' }, { type: 'uint256' }, { type: 'bool' }] as const;
const TAKE_P = [{ type: 'address' }, { type: 'address' }, { type: 'uint256' }] as const;
const POOL_KEY = {
  type: 'tuple',
  components: [
    { name: 'currency0', type: 'address' },
    { name: 'currency1', type: 'address' },
    { name: 'fee', type: 'uint24' },
    { name: 'tickSpacing', type: 'int24' },
    { name: 'hooks', type: 'address' },
  ],
} as const;
const MINT_P = [
  POOL_KEY,
  { type: 'int24' },
  { type: 'int24' },
  { type: 'uint256' },
  { type: 'uint128' },
  { type: 'uint128' },
  { type: 'address' },
  { type: 'bytes' },
] as const;
const EXACT_IN_SINGLE = [
  {
    type: 'tuple',
    components: [
      { ...POOL_KEY, name: 'poolKey' },
      { name: 'zeroForOne', type: 'bool' },
      { name: 'amountIn', type: 'uint128' },
      { name: 'amountOutMinimum', type: 'uint128' },
      { name: 'hookData', type: 'bytes' },
    ],
  },
] as const;
const EXACT_IN = [
  {
    type: 'tuple',
    components: [
      { name: 'currencyIn', type: 'address' },
      {
        name: 'path',
        type: 'tuple[]',
        components: [
          { name: 'intermediateCurrency', type: 'address' },
          { name: 'fee', type: 'uint24' },
          { name: 'tickSpacing', type: 'int24' },
          { name: 'hooks', type: 'address' },
          { name: 'hookData', type: 'bytes' },
        ],
      },
      { name: 'amountIn', type: 'uint128' },
      { name: 'amountOutMinimum', type: 'uint128' },
    ],
  },
] as const;

/** The V4_SWAP command's input: abi.encode(bytes actions, bytes[] params). */
function v4Actions(actions: Array<[number, Hex]>): Hex {
  return encodeAbiParameters([{ type: 'bytes' }, { type: 'bytes[]' }], [concat(actions.map(([a]) => toHex(a, { size: 1 }))), actions.map(([, p]) => p)]);
}

/** ABI encoding for the router inputs above (addresses here are plain lowercase strings). */
function enc(types: readonly unknown[], values: readonly unknown[]): Hex {
  return encodeAbiParameters(types as never, values as never);
}

function packed(types: readonly string[], values: readonly unknown[]): Hex {
  return encodePacked(types as never, values as never);
}

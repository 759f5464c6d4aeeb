import { HistoryError } from '../../core/errors.js';
import { normalizeEvmAddress } from './address.js';

/**
 * EVM chains the server knows: the built-in table below plus whatever `EVM_CHAINS_FILE` adds or
 * overrides (decisions.md, "Chains"). Addresses are stored lowercase.
 */

export type EvmDexKind = 'v2' | 'v3' | 'v4' | 'balancer-v2' | 'cow' | 'uniswapx' | 'infinity' | 'fourmeme';
export type EvmConfirmation = 'latest' | 'safe' | 'finalized' | number;

/** A venue whose pools are contracts of their own, told by the pool's `factory()`. */
export interface EvmFactoryDexConfig {
  /** Venue slug as it appears in Trade.dex, e.g. `uniswap-v2`. */
  name: string;
  kind: 'v2' | 'v3';
  /** Factory address, lowercase. A pool's `factory()` is looked up here. */
  factory: string;
}

/** A Uniswap-V4-shaped venue: one PoolManager emits every pool's Swap. */
export interface EvmV4DexConfig {
  name: string;
  kind: 'v4';
  /** PoolManager address, lowercase. */
  poolManager: string;
  /** PositionManager address, lowercase: its `poolKeys(bytes25)` gives pool keys in one call. */
  positionManager?: string;
}

/** A Balancer-V2-shaped venue: one Vault emits every pool's Swap. */
export interface EvmBalancerDexConfig {
  name: string;
  kind: 'balancer-v2';
  /** Vault address, lowercase. */
  vault: string;
}

/**
 * A settlement contract that trades for order owners (decisions.md, "Settlements for the wallet"):
 * CoW Protocol's GPv2Settlement (its `Trade` event names the owner) or a UniswapX reactor (its
 * `Fill` names the swapper). Only configured contracts count: anyone can emit such an event.
 */
export interface EvmSettlementDexConfig {
  name: string;
  kind: 'cow' | 'uniswapx';
  /** Settlement contract or reactor address, lowercase. */
  settlement: string;
}

/**
 * PancakeSwap Infinity: a Vault holds every pool's tokens, and pool managers (concentrated
 * liquidity, liquidity bins) emit the swaps, each in its own `Swap` shape. The venue is the Vault.
 */
export interface EvmInfinityDexConfig {
  name: string;
  kind: 'infinity';
  /** Vault address, lowercase: tokens and native coin move to and from it. */
  vault: string;
  /** The CL and Bin pool managers, lowercase (at least one). */
  poolManagers: string[];
}

/**
 * four.meme's bonding curve (TokenManager2 on BNB Chain): `TokenPurchase` / `TokenSale` carry the
 * BNB the curve exchanged (`cost`, the fee apart). Only configured managers count: the events
 * carry no indexed fields and anyone could emit them.
 */
export interface EvmFourMemeDexConfig {
  name: string;
  kind: 'fourmeme';
  /** TokenManager address, lowercase. */
  tokenManager: string;
}

export type EvmDexConfig = EvmFactoryDexConfig | EvmV4DexConfig | EvmBalancerDexConfig | EvmSettlementDexConfig | EvmInfinityDexConfig | EvmFourMemeDexConfig;

/** The address that identifies a venue: its factory, PoolManager, Vault or settlement contract (lowercase). */
export function dexAddress(d: EvmDexConfig): string {
  switch (d.kind) {
    case 'v4':
      return d.poolManager;
    case 'balancer-v2':
    case 'infinity':
      return d.vault;
    case 'fourmeme':
      return d.tokenManager;
    case 'cow':
    case 'uniswapx':
      return d.settlement;
    default:
      return d.factory;
  }
}

export interface EvmChainConfig {
  slug: string;
  chainId: number;
  /** Default endpoint; `RPC_URL_<SLUG>` overrides it (see rpcUrlFor). */
  rpcUrl: string;
  nativeSymbol: string;
  /**
   * Wrapped native token (WETH, WBNB, ...), lowercase. Null when not known: then no leg counts as
   * native and swaps are reported as token-to-token with amountSol null.
   */
  wrappedNative: string | null;
  /** Explorer link template with `{signature}`. */
  explorerUrl: string;
  /** History is served up to this point: a block tag, or a number of blocks behind the head. */
  confirmation: EvmConfirmation;
  dexes: EvmDexConfig[];
  /** ERC-4337 EntryPoints whose UserOperationEvent attributes a bundled operation to its sender. */
  entryPoints: string[];
  /**
   * Aggregator routers: a trade in a transaction sent to one of these takes its slug
   * (decisions.md: a route through an aggregator takes the aggregator's slug). Optional in the file.
   */
  aggregators: EvmAggregatorConfig[];
  /**
   * Named venues (a market maker's or a venue's contract without an event the decoder reads: its
   * trades take the name), fill-event emitters (the contract that emits an RFQ fill event names the
   * venue) and front ends (a router that forwards to an aggregator: its trades take the
   * aggregator's slug). Optional in the file, merged by address.
   */
  namedContracts?: EvmNamedContract[];
}

export interface EvmAggregatorConfig {
  name: string;
  /** Router address, lowercase. */
  address: string;
}

/**
 * A contract the decoder names beyond the dex table (ROUTES.md R10), by its role in a route:
 *  - `venue`: the contract holds the liquidity and trades itself (an RFQ pool, a PSM, a DEX of its
 *    own): a venue recognised by its flows there takes `name`;
 *  - `fills`: the contract emits the fill event of orders that market makers fill from their own
 *    accounts (the event names the maker): the maker takes `name`;
 *  - `front-end`: a wallet's or app's swap contract that forwards to an aggregator or market maker
 *    (R2: never a slug of its own; listed so the docs' table is complete).
 */
export interface EvmNamedContract {
  name: string;
  address: string;
  role: 'venue' | 'fills' | 'front-end';
}

/** EntryPoint v0.6, v0.7 and v0.8 at their deterministic (same on every chain) addresses. */
export const CANONICAL_ENTRY_POINTS: readonly string[] = [
  '0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789',
  '0x0000000071727de22e5e9d8baf0edac6f37da032',
  '0x4337084d9e255ff0702461cf8895ce9e3b5ff108',
];

function dex(name: string, kind: 'v2' | 'v3', factory: string): EvmDexConfig {
  return { name, kind, factory: factory.toLowerCase() };
}

// PancakeSwap Infinity, the same addresses on BNB Chain and Base (pancakeswap/infinity-core
// script/config/bsc-mainnet.json and base-mainnet.json).
const PANCAKE_INFINITY: EvmDexConfig = {
  name: 'pancakeswap-infinity',
  kind: 'infinity',
  vault: '0x238a358808379702088667322f80ac48bad5e6c4',
  poolManagers: ['0xa0ffb9c1ce1fe56963b0321b32e7a0302114058b', '0xc697d2898e0d09264376196696c51d7abbbaa4a9'],
};

function v4(poolManager: string, positionManager: string): EvmDexConfig {
  return { name: 'uniswap-v4', kind: 'v4', poolManager: poolManager.toLowerCase(), positionManager: positionManager.toLowerCase() };
}

// Balancer V2's Vault, at the same address on every chain it is deployed to. Issue 11 gives the
// address without naming chains; eth and base carry it (Balancer V2 runs there), bsc, monad and
// robinhood do not until a deployment there is confirmed (an operator can add it by file).
const BALANCER_V2_VAULT: EvmDexConfig = { name: 'balancer-v2', kind: 'balancer-v2', vault: '0xba12222222228d8ba445958a75a0704d566bf2c8' };

// CoW Protocol's GPv2Settlement, at one address on the chains it runs on (issue 11; CoW's
// deployment list has it on Ethereum, Base and BNB Chain).
const COW_SETTLEMENT: EvmDexConfig = { name: 'cow', kind: 'cow', settlement: '0x9008d19f58aabd9ed0d60971565aa8510560ab41' };
// UniswapX reactors on Ethereum (docs.uniswap.org/contracts/uniswapx/deployment): V2 Dutch and
// V1 exclusive Dutch. Other chains' reactors are for an operator's file until confirmed.
const UNISWAPX_ETH: EvmDexConfig[] = [
  { name: 'uniswapx', kind: 'uniswapx', settlement: '0x00000011f84b9aa48e5f8aa8b9897600006289be' },
  { name: 'uniswapx', kind: 'uniswapx', settlement: '0x6000da47483062a0d734ba3dc7576ce6a0b645c4' },
];

function agg(name: string, address: string): EvmAggregatorConfig {
  return { name, address: address.toLowerCase() };
}

// Aggregators (ROUTES.md R1), each by the router a transaction calls or a route passes through.
// 1inch's AggregationRouters, one address per version on every chain it serves (1inch docs,
// "Aggregation Protocol" deployments; Dune spellbook oneinch exchange_contracts): V6 and V5
// everywhere, V4 and V3 on the chains that predate Base.
const ONEINCH_V6 = agg('1inch', '0x111111125421cA6dc452d289314280a0f8842A65');
const ONEINCH_V5 = agg('1inch', '0x1111111254EEB25477B68fb85Ed929f73A960582');
const ONEINCH_V4 = agg('1inch', '0x1111111254fb6c44bAC0beD2854e76F90643097d');
const ONEINCH_V3 = agg('1inch', '0x11111112542D85B3EF69AE05771c2dCCff4fAa26');
// KyberSwap: MetaAggregationRouterV2 on every chain, V1 where it ran (docs.kyberswap.com, contract
// addresses); its predecessor Kyber Network's KyberNetworkProxy on Ethereum, old and new
// (docs.kyberswap.com/Legacy/addresses/addresses-mainnet).
const KYBERSWAP = agg('kyberswap', '0x6131B5fae19EA4f9D964eAc0408E4408b66337b5');
const KYBERSWAP_V1 = agg('kyberswap', '0x617Dee16B86534a5d792A4d7A62FB491B544111E');
const KYBER_NETWORK_ETH = [agg('kyberswap', '0x9AAb3f75489902f3a48495025729a0AF77d4b11e'), agg('kyberswap', '0x818E6FECD516Ecc3849DAf6845e3EC868087B755')];
// 0x: API v2 sends allowance-holder swaps to AllowanceHolder (one address on Cancun chains,
// another on Shanghai ones), v1 to its Exchange Proxy. Its Settler contracts are redeployed
// every few weeks (0x-settler README: never hard-code them): enrich/settlers.ts reads them from
// 0x's deployer registry and hands them to the decoder.
const ZEROX = [
  agg('0x', '0x0000000000001fF3684f28c67538d4D072C22734'),
  agg('0x', '0x0000000000005E88410CcDFaDe4a5EfaE4b49562'),
  agg('0x', '0xDef1C0ded9bec7F1a1670819833240f027b25EfF'),
];
// Odos: the V3 router has one address on every chain it serves; V2 and V1 routers differ per chain
// (docs.odos.xyz/build/contracts; V1 in Dune spellbook odos).
const ODOS_V3 = agg('odos', '0x0D05a7D3448512B78fa8A9e46c4872C88C4a0D05');
// ParaSwap (Velora) Augustus V6.2, one address on every chain; Augustus V5 where it still runs
// (developers.paraswap.network, smart contracts; Base's V5 has an address of its own).
const PARASWAP_V6 = agg('paraswap', '0x6A000F20005980200259B80c5102003040001068');
const PARASWAP_V5 = agg('paraswap', '0xDEF171Fe48CF0115B1d80b88dc8eAB59176FEe57');
// OpenOcean's exchange contract, one address on the EVM chains it serves (docs.openocean.finance, contracts).
const OPENOCEAN = agg('openocean', '0x6352a56caadC4F1E25CD6c75970Fa768A3304e64');
// LI.FI's diamond, one address on every chain (docs.li.fi, smart contract addresses).
const LIFI = agg('lifi', '0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE');
// Enso's router, one address on the chains it serves (docs.enso.build, deployments).
const ENSO = agg('enso', '0xF75584eF6673aD213a685a1B58Cc0330B8eA22Cf');

function named(name: string, address: string, role: EvmNamedContract['role']): EvmNamedContract {
  return { name, address: address.toLowerCase(), role };
}
// Rainbow's swap router (rainbow-me/swaps, one address on every chain): a front end (R2).
const RAINBOW = named('rainbow', '0x00000000009726632680fb29d3f7a9734e3010e2', 'front-end');
// AirSwap SwapERC20 v4, one address on Ethereum, BNB Chain, Polygon and Avalanche (AirSwap's
// deployments, airswap-protocols): it emits the fill of the maker's signed order.
const AIRSWAP_V4 = named('airswap', '0xd82FA167727a4dc6D6f55830A2c47aBbB4b3a0F8', 'fills');

// Uniswap V4 PoolManager / PositionManager per chain as given in issue 11 (from Uniswap's v4
// deployment pages).
// Factory addresses from the venues' own deployment pages (docs.uniswap.org v2/v3 deployments,
// developer.pancakeswap.finance v2 addresses, SushiSwap's npm README, Aerodrome's factory).
const UNI_V2_BASE_BSC = '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6';
const PANCAKE_V3 = '0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865';
const PANCAKE_V2_MULTICHAIN = '0x02a84c1b3BBD7401a5f7fa98a384EBC70bB5749E';

export const BUILT_IN_EVM_CHAINS: readonly EvmChainConfig[] = [
  {
    slug: 'eth',
    chainId: 1,
    rpcUrl: 'https://ethereum-rpc.publicnode.com',
    nativeSymbol: 'ETH',
    wrappedNative: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    explorerUrl: 'https://etherscan.io/tx/{signature}',
    confirmation: 'safe',
    dexes: [
      dex('uniswap-v2', 'v2', '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f'),
      dex('uniswap-v3', 'v3', '0x1F98431c8aD98523631AE4a59f267346ea31F984'),
      dex('sushiswap', 'v2', '0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac'),
      dex('pancakeswap-v2', 'v2', '0x1097053Fd2ea711dad45caCcc45EfF7548fCB362'),
      dex('pancakeswap-v3', 'v3', PANCAKE_V3),
      v4('0x000000000004444c5dc75cB358380D2e3dE08A90', '0xbd216513d74c8cf14cf4747e6aaa6420ff64ee9e'),
      BALANCER_V2_VAULT,
      COW_SETTLEMENT,
      ...UNISWAPX_ETH,
    ],
    entryPoints: [...CANONICAL_ENTRY_POINTS],
    aggregators: [
      ONEINCH_V6,
      ONEINCH_V5,
      ONEINCH_V4,
      ONEINCH_V3,
      KYBERSWAP,
      KYBERSWAP_V1,
      ...KYBER_NETWORK_ETH,
      ...ZEROX,
      ODOS_V3,
      agg('odos', '0xCf5540fFFCdC3d510B18bFcA6d2b9987b0772559'),
      agg('odos', '0x76f4eeD9fE41262669D0250b2A97db79712aD855'),
      PARASWAP_V6,
      PARASWAP_V5,
      OPENOCEAN,
      // OKX's DEX router and its earlier versions (OKX Web3 docs, DEX API smart contract addresses).
      agg('okx', '0x7D0CcAa3Fac1e5A943c5168b6CEd828691b46B36'),
      agg('okx', '0x2e1dee213ba8d7af0934c49a23187babeaca8764'),
      agg('okx', '0x8feab81d36e7576107d5de0758c1b839be31b4f6'),
      agg('okx', '0x28b1dc1a5e3699a428bc51d234dfab7c9cb2a183'),
      // Magpie (Fly.trade) router V3.1 (docs.fly.trade, contract addresses).
      agg('magpie', '0xA6E941eaB67569ca4522f70d343714fF51d571c4'),
      // Firebird's router (Dune spellbook firebird; its own client-data logs say "firebird").
      agg('firebird', '0xe0C38b2a8D09aAD53f1C67734B9A95E43d5981c0'),
      LIFI,
      ENSO,
    ],
    namedContracts: [
      // Clipper's exchange holds its own liquidity (docs.clipper.exchange, contract addresses).
      named('clipper', '0x655eDCE464CC797526600a462A8154650EEe4B77', 'venue'),
      // DeFi Plaza's single-contract DEX (defiplaza.net docs).
      named('defiplaza', '0xE68c1d72340aEeFe5Be76eDa63AE2f4bc7514110', 'venue'),
      // AirSwap SwapERC20 v3 and v4 (airswap-protocols deployments).
      named('airswap', '0x522D6F36c95A1b6509A14272C17747BbB582F2A6', 'fills'),
      AIRSWAP_V4,
      // ParaSwap's AugustusRFQ, where its market makers' limit orders fill (developers.paraswap.network).
      named('paraswap', '0xe92b586627ccA7a83dC919cc7127196d70f55a06', 'fills'),
      // MetaMask Swaps' router (Dune spellbook metamask), Coinbase Wallet's 0x proxy, Rainbow's router: front ends.
      named('metamask', '0x881D40237659C251811CEC9c364ef91dC08D300C', 'front-end'),
      named('coinbase-wallet', '0xe66B31678d6C16E9ebf358268a790B763C133750', 'front-end'),
      RAINBOW,
    ],
  },
  {
    slug: 'base',
    chainId: 8453,
    rpcUrl: 'https://mainnet.base.org',
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    explorerUrl: 'https://basescan.org/tx/{signature}',
    confirmation: 'safe',
    dexes: [
      dex('uniswap-v2', 'v2', UNI_V2_BASE_BSC),
      dex('uniswap-v3', 'v3', '0x33128a8fC17869897dcE68Ed026d694621f6FDfD'),
      dex('pancakeswap-v2', 'v2', PANCAKE_V2_MULTICHAIN),
      dex('pancakeswap-v3', 'v3', PANCAKE_V3),
      // SushiSwap V2 on Base (docs.sushi.com, V2 core deployments).
      dex('sushiswap', 'v2', '0x71524B4f93c58fcbF659783284E38825f0622859'),
      // Aerodrome's basic pools are Solidly-style (their own Swap event shape, recognised below).
      dex('aerodrome', 'v2', '0x420DD381b31aEf6683db6B902084cB0FFECe40Da'),
      // Slipstream, Aerodrome's concentrated-liquidity pools: Uniswap V3's Swap event, own factory.
      dex('aerodrome-slipstream', 'v3', '0x5e7BB104d84c7CB9B682AaC2F3d509f5F406809A'),
      PANCAKE_INFINITY,
      v4('0x498581ff718922c3f8e6a244956af099b2652b2b', '0x7c5f5a4bbd8fd63184577525326123b519429bdc'),
      BALANCER_V2_VAULT,
      COW_SETTLEMENT,
    ],
    entryPoints: [...CANONICAL_ENTRY_POINTS],
    aggregators: [
      ONEINCH_V6,
      ONEINCH_V5,
      KYBERSWAP,
      ...ZEROX,
      ODOS_V3,
      agg('odos', '0x19cEeAd7105607Cd444F5ad10dd51356436095a1'),
      PARASWAP_V6,
      agg('paraswap', '0x59C7C832e96D2568bea6db468C1aAdcbbDa08A52'),
      OPENOCEAN,
      // Magpie (Fly.trade) routers V3.0 and V3.1 on Base (docs.fly.trade, contract addresses).
      agg('magpie', '0xef42f78d25f4c681dcad2597fa04877ff802ef4b'),
      agg('magpie', '0x5e766616aabfb588e23a8ea854e9dbd1042affd3'),
      LIFI,
      ENSO,
    ],
    namedContracts: [RAINBOW],
  },
  {
    slug: 'bsc',
    chainId: 56,
    rpcUrl: 'https://bsc-dataseed.bnbchain.org',
    nativeSymbol: 'BNB',
    wrappedNative: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
    explorerUrl: 'https://bscscan.com/tx/{signature}',
    confirmation: 'safe',
    dexes: [
      dex('pancakeswap-v2', 'v2', '0xcA143Ce32Fe78f1f7019d7d551a6402fC5350c73'),
      dex('pancakeswap-v3', 'v3', PANCAKE_V3),
      dex('uniswap-v2', 'v2', UNI_V2_BASE_BSC),
      dex('uniswap-v3', 'v3', '0xdB1d10011AD0Ff90774D0C6Bb92e5C5c8b4461F7'),
      dex('sushiswap', 'v2', '0xc35DADB65012eC5796536bD9864eD8773aBc74C4'),
      v4('0x28e2ea090877bf75740558f6bfb36a5ffee9e9df', '0x7a4a5c919ae2541aed11041a1aeee68f1287f95b'),
      PANCAKE_INFINITY,
      { name: 'fourmeme', kind: 'fourmeme', tokenManager: '0x5c952063c7fc8610ffdb798152d69f0b9550762b' },
      COW_SETTLEMENT,
    ],
    entryPoints: [...CANONICAL_ENTRY_POINTS],
    aggregators: [
      ONEINCH_V6,
      ONEINCH_V5,
      ONEINCH_V4,
      ONEINCH_V3,
      KYBERSWAP,
      KYBERSWAP_V1,
      ...ZEROX,
      ODOS_V3,
      agg('odos', '0x89b8AA89FDd0507a99d334CBe3C808fAFC7d850E'),
      agg('odos', '0x9f138be5aA5cC442Ea7cC7D18cD9E30593ED90b9'),
      PARASWAP_V6,
      PARASWAP_V5,
      OPENOCEAN,
      // Firebird's router on BNB Chain (Dune spellbook firebird).
      agg('firebird', '0x92e4F29Be975C1B1eB72E77De24Dccf11432a5bd'),
      LIFI,
      ENSO,
    ],
    namedContracts: [
      AIRSWAP_V4,
      // MetaMask Swaps' router on BNB Chain (rotki's metamask constants), Rainbow's: front ends.
      named('metamask', '0x1a1ec25DC08e98e5E93F1104B5e5cdD298707d31', 'front-end'),
      RAINBOW,
    ],
  },
  {
    slug: 'monad',
    chainId: 143,
    rpcUrl: 'https://rpc.monad.xyz',
    nativeSymbol: 'MON',
    wrappedNative: '0x3bd359c1119da7da1d913d1c4d2b7c461115433a',
    explorerUrl: 'https://monadscan.com/tx/{signature}',
    confirmation: 'safe',
    dexes: [
      dex('uniswap-v2', 'v2', '0x182a927119d56008d921126764bf884221b10f59'),
      dex('pancakeswap-v2', 'v2', PANCAKE_V2_MULTICHAIN),
      v4('0x188d586ddcf52439676ca21a244753fa19f9ea8e', '0x5b7ec4a94ff9bedb700fb82ab09d5846972f4016'),
    ],
    entryPoints: [...CANONICAL_ENTRY_POINTS],
    aggregators: [KYBERSWAP],
  },
  {
    // Arbitrum Orbit L2, chain id 4663 (docs.robinhood.com/chain/connecting). Its mainnet wrapped
    // ETH address could not be verified here: an operator sets it (and venues) in EVM_CHAINS_FILE.
    slug: 'robinhood',
    chainId: 4663,
    rpcUrl: 'https://rpc.mainnet.chain.robinhood.com',
    nativeSymbol: 'ETH',
    wrappedNative: null,
    explorerUrl: 'https://robinhoodchain.blockscout.com/tx/{signature}',
    confirmation: 'safe',
    dexes: [v4('0x8366a39cc670b4001a1121b8f6a443a643e40951', '0x58daec3116aae6d93017baaea7749052e8a04fa7')],
    entryPoints: [...CANONICAL_ENTRY_POINTS],
    aggregators: [],
  },
];

/** Name of the environment variable that overrides a chain's RPC URL: `RPC_URL_<SLUG>`. */
export function rpcUrlEnvName(slug: string): string {
  return `RPC_URL_${slug.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The RPC URL to use for a chain: `RPC_URL_<SLUG>` when set, else the configured one. */
export function rpcUrlFor(chain: EvmChainConfig, env: Record<string, string | undefined>): string {
  const v = env[rpcUrlEnvName(chain.slug)];
  return v && v.trim() ? v.trim() : chain.rpcUrl;
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,31}$/;
const RESERVED_NON_EVM = new Set(['sol', 'tron']);

function fail(where: string, field: string, why: string): never {
  throw new HistoryError('config_invalid', `EVM_CHAINS_FILE ${where}: field "${field}" ${why}`, {
    context: { where, field },
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseAddress(where: string, field: string, v: unknown): string {
  if (typeof v !== 'string') fail(where, field, 'must be a 0x address string');
  const a = normalizeEvmAddress(v);
  if (!a) fail(where, field, `is not a valid EVM address (0x + 40 hex, EIP-55 if mixed case): ${JSON.stringify(v)}`);
  return a;
}

function parseConfirmation(where: string, v: unknown): EvmConfirmation {
  if (v === 'latest' || v === 'safe' || v === 'finalized') return v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1_000_000) return v;
  fail(where, 'confirmation', 'must be "latest", "safe", "finalized" or a whole number of blocks (0..1000000)');
}

const DEX_FIELDS: Record<EvmDexKind, readonly string[]> = {
  v2: ['name', 'kind', 'factory'],
  v3: ['name', 'kind', 'factory'],
  v4: ['name', 'kind', 'poolManager', 'positionManager'],
  'balancer-v2': ['name', 'kind', 'vault'],
  cow: ['name', 'kind', 'settlement'],
  uniswapx: ['name', 'kind', 'settlement'],
  infinity: ['name', 'kind', 'vault', 'poolManagers'],
  fourmeme: ['name', 'kind', 'tokenManager'],
};

function parseDexes(where: string, v: unknown): EvmDexConfig[] {
  if (!Array.isArray(v)) fail(where, 'dexes', 'must be an array of venues ({ name, kind, factory | poolManager | vault | settlement })');
  return v.map((d, j): EvmDexConfig => {
    const w = `${where} dexes[${j}]`;
    if (!isObject(d)) fail(w, 'dexes', 'entry must be an object');
    if (typeof d.name !== 'string' || !SLUG.test(d.name)) fail(w, 'name', 'must be a lowercase slug like "uniswap-v2"');
    if (typeof d.kind !== 'string' || !Object.hasOwn(DEX_FIELDS, d.kind)) {
      fail(
        w,
        'kind',
        `must be one of ${Object.keys(DEX_FIELDS)
          .map((k) => `"${k}"`)
          .join(', ')}`,
      );
    }
    const kind = d.kind as EvmDexKind;
    const extra = Object.keys(d).find((k) => !DEX_FIELDS[kind].includes(k));
    if (extra) fail(w, extra, `is not a field of a "${kind}" venue (${DEX_FIELDS[kind].join(', ')})`);
    if (kind === 'v4') {
      const positionManager = d.positionManager !== undefined ? parseAddress(w, 'positionManager', d.positionManager) : undefined;
      return { name: d.name, kind, poolManager: parseAddress(w, 'poolManager', d.poolManager), ...(positionManager ? { positionManager } : {}) };
    }
    if (kind === 'balancer-v2') return { name: d.name, kind, vault: parseAddress(w, 'vault', d.vault) };
    if (kind === 'cow' || kind === 'uniswapx') return { name: d.name, kind, settlement: parseAddress(w, 'settlement', d.settlement) };
    if (kind === 'infinity') {
      if (!Array.isArray(d.poolManagers) || d.poolManagers.length === 0) fail(w, 'poolManagers', 'must be a non-empty array of pool manager addresses');
      return {
        name: d.name,
        kind,
        vault: parseAddress(w, 'vault', d.vault),
        poolManagers: d.poolManagers.map((m, k) => parseAddress(w, `poolManagers[${k}]`, m)),
      };
    }
    if (kind === 'fourmeme') return { name: d.name, kind, tokenManager: parseAddress(w, 'tokenManager', d.tokenManager) };
    return { name: d.name, kind, factory: parseAddress(w, 'factory', d.factory) };
  });
}

function parseUrl(where: string, field: string, v: unknown, needsSignature: boolean): string {
  if (typeof v !== 'string' || !v) fail(where, field, 'must be a non-empty URL string');
  let u: URL;
  try {
    u = new URL(needsSignature ? v.replace('{signature}', 'x') : v);
  } catch {
    fail(where, field, 'is not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(where, field, 'must be http(s)');
  if (needsSignature && !v.includes('{signature}')) fail(where, field, 'must contain {signature}');
  return v;
}

/**
 * Validates the parsed JSON of `EVM_CHAINS_FILE` and returns complete chain configs. An entry whose
 * slug is built in may give any subset of fields (they override, and its dexes add to the
 * built-in table); a new slug must give slug, chainId, rpcUrl, nativeSymbol, wrappedNative and
 * explorerUrl. Errors are HistoryError `config_invalid` naming the entry (index and slug) and field.
 */
export function parseEvmChainsFile(json: unknown, builtIn: readonly EvmChainConfig[] = BUILT_IN_EVM_CHAINS): EvmChainConfig[] {
  if (!Array.isArray(json)) fail('(top level)', '(file)', 'must be a JSON array of chain objects');
  const seen = new Set<string>();
  return json.map((e, i) => {
    let where = `entry ${i}`;
    if (!isObject(e)) fail(where, '(entry)', 'must be an object');
    if (typeof e.slug !== 'string' || !SLUG.test(e.slug)) fail(where, 'slug', 'must be a lowercase slug (a-z, 0-9, -; at most 32)');
    const slug = e.slug;
    where = `entry ${i} ("${slug}")`;
    if (RESERVED_NON_EVM.has(slug)) fail(where, 'slug', 'names a non-EVM chain');
    if (seen.has(slug)) fail(where, 'slug', 'appears twice');
    seen.add(slug);
    const known = Object.keys(e).filter(
      (k) =>
        ![
          'slug',
          'chainId',
          'rpcUrl',
          'nativeSymbol',
          'wrappedNative',
          'explorerUrl',
          'confirmation',
          'dexes',
          'entryPoints',
          'aggregators',
          'namedContracts',
        ].includes(k),
    );
    if (known.length) fail(where, known[0], 'is not a known field');
    const base = builtIn.find((c) => c.slug === slug);
    const need = (f: string) => {
      if (e[f] === undefined && !base) fail(where, f, 'is required for a chain that is not built in');
      return e[f] !== undefined;
    };
    const chainId = need('chainId') ? e.chainId : base!.chainId;
    if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) fail(where, 'chainId', 'must be a positive integer');
    const rpcUrl = need('rpcUrl') ? parseUrl(where, 'rpcUrl', e.rpcUrl, false) : base!.rpcUrl;
    let nativeSymbol = base?.nativeSymbol;
    if (need('nativeSymbol')) {
      if (typeof e.nativeSymbol !== 'string' || !/^[A-Za-z0-9.]{1,16}$/.test(e.nativeSymbol)) fail(where, 'nativeSymbol', 'must be a short symbol like "ETH"');
      nativeSymbol = e.nativeSymbol;
    }
    const wrappedNative = need('wrappedNative') ? parseAddress(where, 'wrappedNative', e.wrappedNative) : base!.wrappedNative;
    const explorerUrl = need('explorerUrl') ? parseUrl(where, 'explorerUrl', e.explorerUrl, true) : base!.explorerUrl;
    const confirmation = e.confirmation !== undefined ? parseConfirmation(where, e.confirmation) : (base?.confirmation ?? 'safe');
    const fileDexes = e.dexes !== undefined ? parseDexes(where, e.dexes) : [];
    const dexes = mergeDexes(base?.dexes ?? [], fileDexes);
    let entryPoints = base?.entryPoints ?? [...CANONICAL_ENTRY_POINTS];
    if (e.entryPoints !== undefined) {
      if (!Array.isArray(e.entryPoints)) fail(where, 'entryPoints', 'must be an array of addresses');
      entryPoints = [...new Set([...entryPoints, ...e.entryPoints.map((a, j) => parseAddress(`${where} entryPoints[${j}]`, 'entryPoints', a))])];
    }
    let aggregators = base?.aggregators ?? [];
    if (e.aggregators !== undefined) {
      if (!Array.isArray(e.aggregators)) fail(where, 'aggregators', 'must be an array of { name, address }');
      const more = e.aggregators.map((a, j) => {
        const w = `${where} aggregators[${j}]`;
        if (!isObject(a)) fail(w, 'aggregators', 'entry must be an object');
        if (typeof a.name !== 'string' || !SLUG.test(a.name)) fail(w, 'name', 'must be a lowercase slug like "1inch"');
        return { name: a.name, address: parseAddress(w, 'address', a.address) };
      });
      aggregators = mergeByAddress(aggregators, more);
    }
    const named = e.namedContracts !== undefined ? parseNamedContracts(where, e.namedContracts) : [];
    const namedContracts = mergeByAddress(base?.namedContracts ?? [], named);
    return {
      slug,
      chainId,
      rpcUrl,
      nativeSymbol: nativeSymbol!,
      wrappedNative,
      explorerUrl,
      confirmation,
      dexes,
      entryPoints,
      aggregators,
      ...(namedContracts.length ? { namedContracts } : {}),
    };
  });
}

const NAMED_ROLES: ReadonlySet<string> = new Set<EvmNamedContract['role']>(['venue', 'fills', 'front-end']);

function parseNamedContracts(where: string, v: unknown): EvmNamedContract[] {
  if (!Array.isArray(v)) fail(where, 'namedContracts', 'must be an array of { name, address, role }');
  return v.map((c, j) => {
    const w = `${where} namedContracts[${j}]`;
    if (!isObject(c)) fail(w, 'namedContracts', 'entry must be an object');
    if (typeof c.name !== 'string' || !SLUG.test(c.name)) fail(w, 'name', 'must be a lowercase slug like "hashflow"');
    if (typeof c.role !== 'string' || !NAMED_ROLES.has(c.role)) fail(w, 'role', 'must be "venue", "fills" or "front-end"');
    return { name: c.name, address: parseAddress(w, 'address', c.address), role: c.role as EvmNamedContract['role'] };
  });
}

/** Dex tables merged by venue address (factory, PoolManager, Vault); a later entry for the same address replaces the earlier one. */
function mergeDexes(a: readonly EvmDexConfig[], b: readonly EvmDexConfig[]): EvmDexConfig[] {
  const m = new Map<string, EvmDexConfig>();
  for (const d of [...a, ...b]) m.set(dexAddress(d), d);
  return [...m.values()];
}

/** Entries merged by address; a later entry for the same address replaces the earlier one. */
function mergeByAddress<T extends { address: string }>(a: readonly T[], b: readonly T[]): T[] {
  const m = new Map<string, T>();
  for (const x of [...a, ...b]) m.set(x.address, x);
  return [...m.values()];
}

/**
 * Built-in chains with the file's entries applied: an entry with a built-in slug replaces its
 * settings (dex tables are unioned by factory), other entries are appended in file order.
 */
export function mergeEvmChains(builtIn: readonly EvmChainConfig[], fromFile: readonly EvmChainConfig[]): EvmChainConfig[] {
  const out = builtIn.map((c) => ({ ...c, dexes: [...c.dexes], entryPoints: [...c.entryPoints], aggregators: [...c.aggregators] }));
  for (const f of fromFile) {
    const i = out.findIndex((c) => c.slug === f.slug);
    if (i < 0) out.push({ ...f, dexes: [...f.dexes], entryPoints: [...f.entryPoints], aggregators: [...(f.aggregators ?? [])] });
    else
      out[i] = {
        ...f,
        dexes: mergeDexes(out[i].dexes, f.dexes),
        entryPoints: [...new Set([...out[i].entryPoints, ...f.entryPoints])],
        aggregators: mergeByAddress(out[i].aggregators, f.aggregators ?? []),
        ...(out[i].namedContracts || f.namedContracts ? { namedContracts: mergeByAddress(out[i].namedContracts ?? [], f.namedContracts ?? []) } : {}),
      };
  }
  return out;
}

/** Venue slug of a factory on a chain, or undefined when the factory is not in its table. */
export function dexForFactory(chain: EvmChainConfig, factory: string): EvmDexConfig | undefined {
  const f = factory.toLowerCase();
  return chain.dexes.find((d) => (d.kind === 'v2' || d.kind === 'v3') && d.factory === f);
}

/** The configured venue whose PoolManager or Vault (per `kind`) is `address`, if any. */
export function dexForSingleton(chain: EvmChainConfig, kind: Exclude<EvmDexKind, 'v2' | 'v3'>, address: string): EvmDexConfig | undefined {
  const a = address.toLowerCase();
  return chain.dexes.find((d) => d.kind === kind && dexAddress(d) === a);
}

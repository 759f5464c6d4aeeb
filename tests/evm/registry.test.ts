import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_EVM_CHAINS,
  mergeEvmChains,
  parseEvmChainsFile,
  rpcUrlEnvName,
  rpcUrlFor,
  dexForFactory,
  dexAddress,
} from '../../src/lib/chains/evm/registry.js';
import { isHistoryError } from '../../src/lib/core/errors.js';
import { decodeReceipt } from '../../src/lib/chains/evm/decode/decode-receipt.js';
import { ERC20_TRANSFER_TOPIC } from '../../src/lib/chains/shared/uniswap-v2-events.js';

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const entry = {
  slug: 'devnet2',
  chainId: 31338,
  rpcUrl: 'http://127.0.0.1:8545',
  nativeSymbol: 'ETH',
  wrappedNative: WETH,
  explorerUrl: 'https://explorer.example/tx/{signature}',
  confirmation: 12,
  dexes: [{ name: 'my-dex', kind: 'v2', factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f' }],
};

function errorOf(f: () => unknown): { message: string; code: string } {
  try {
    f();
  } catch (e) {
    if (isHistoryError(e)) return { message: e.message, code: e.code };
    throw e;
  }
  throw new Error('expected an error');
}

describe('built-in EVM chains', () => {
  it('has eth, base, bsc, monad and robinhood with their chain ids', () => {
    expect(Object.fromEntries(BUILT_IN_EVM_CHAINS.map((c) => [c.slug, c.chainId]))).toEqual({ eth: 1, base: 8453, bsc: 56, monad: 143, robinhood: 4663 });
    expect(BUILT_IN_EVM_CHAINS.find((c) => c.slug === 'bsc')!.nativeSymbol).toBe('BNB');
    expect(BUILT_IN_EVM_CHAINS.find((c) => c.slug === 'monad')!.nativeSymbol).toBe('MON');
  });

  it('stores lowercase addresses, defaults to the safe block and links explorers with {signature}', () => {
    for (const c of BUILT_IN_EVM_CHAINS) {
      expect(c.confirmation).toBe('safe');
      expect(c.explorerUrl).toContain('{signature}');
      expect(c.rpcUrl).toMatch(/^https:\/\//);
      for (const d of c.dexes) expect(dexAddress(d)).toMatch(/^0x[0-9a-f]{40}$/);
      if (c.wrappedNative) expect(c.wrappedNative).toMatch(/^0x[0-9a-f]{40}$/);
    }
    const eth = BUILT_IN_EVM_CHAINS.find((c) => c.slug === 'eth')!;
    expect(dexForFactory(eth, '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f')?.name).toBe('uniswap-v2');
    expect(dexForFactory(eth, '0x1F98431c8aD98523631AE4a59f267346ea31F984')?.name).toBe('uniswap-v3');
    expect(eth.wrappedNative).toBe(WETH.toLowerCase());
  });

  it('takes RPC_URL_<SLUG> over the configured endpoint', () => {
    const eth = BUILT_IN_EVM_CHAINS[0];
    expect(rpcUrlEnvName('devnet-2')).toBe('RPC_URL_DEVNET_2');
    expect(rpcUrlFor(eth, { RPC_URL_ETH: 'http://node:8545' })).toBe('http://node:8545');
    expect(rpcUrlFor(eth, {})).toBe(eth.rpcUrl);
  });
});

describe('built-in V4 and Balancer venues (addresses from issue 11)', () => {
  it("has each chain's PoolManager and PositionManager, and the Balancer V2 Vault on eth and base", () => {
    const v4 = Object.fromEntries(
      BUILT_IN_EVM_CHAINS.map((c) => [
        c.slug,
        c.dexes.filter((d) => d.kind === 'v4').map((d) => d.kind === 'v4' && [d.name, d.poolManager, d.positionManager]),
      ]),
    );
    expect(v4).toEqual({
      eth: [['uniswap-v4', '0x000000000004444c5dc75cb358380d2e3de08a90', '0xbd216513d74c8cf14cf4747e6aaa6420ff64ee9e']],
      base: [['uniswap-v4', '0x498581ff718922c3f8e6a244956af099b2652b2b', '0x7c5f5a4bbd8fd63184577525326123b519429bdc']],
      bsc: [['uniswap-v4', '0x28e2ea090877bf75740558f6bfb36a5ffee9e9df', '0x7a4a5c919ae2541aed11041a1aeee68f1287f95b']],
      monad: [['uniswap-v4', '0x188d586ddcf52439676ca21a244753fa19f9ea8e', '0x5b7ec4a94ff9bedb700fb82ab09d5846972f4016']],
      robinhood: [['uniswap-v4', '0x8366a39cc670b4001a1121b8f6a443a643e40951', '0x58daec3116aae6d93017baaea7749052e8a04fa7']],
    });
    const vaults = BUILT_IN_EVM_CHAINS.filter((c) => c.dexes.some((d) => d.kind === 'balancer-v2' && d.vault === '0xba12222222228d8ba445958a75a0704d566bf2c8'));
    expect(vaults.map((c) => c.slug)).toEqual(['eth', 'base']);
  });
});

describe('EVM_CHAINS_FILE', () => {
  it('takes v4 venues (PositionManager optional) and Balancer V2 vaults', () => {
    const PM = '0x' + '44'.repeat(20);
    const POS = '0x' + '55'.repeat(20);
    const [c] = parseEvmChainsFile([
      {
        ...entry,
        dexes: [
          { name: 'my-v4', kind: 'v4', poolManager: PM, positionManager: POS },
          { name: 'other-v4', kind: 'v4', poolManager: WETH },
          { name: 'my-vault', kind: 'balancer-v2', vault: '0xBA12222222228d8Ba445958a75a0704d566BF2C8' },
        ],
      },
    ]);
    expect(c.dexes).toEqual([
      { name: 'my-v4', kind: 'v4', poolManager: PM, positionManager: POS },
      { name: 'other-v4', kind: 'v4', poolManager: WETH.toLowerCase() },
      { name: 'my-vault', kind: 'balancer-v2', vault: '0xba12222222228d8ba445958a75a0704d566bf2c8' },
    ]);
    // A file entry for a built-in PoolManager renames that venue instead of adding a second one.
    const eth = mergeEvmChains(
      BUILT_IN_EVM_CHAINS,
      parseEvmChainsFile([{ slug: 'eth', dexes: [{ name: 'uni4', kind: 'v4', poolManager: '0x000000000004444c5dc75cB358380D2e3dE08A90' }] }]),
    ).find((x) => x.slug === 'eth')!;
    expect(eth.dexes.filter((d) => d.kind === 'v4')).toEqual([{ name: 'uni4', kind: 'v4', poolManager: '0x000000000004444c5dc75cb358380d2e3de08a90' }]);
  });

  it('takes settlement contracts (CoW, UniswapX reactors); CoW is built in where it runs', () => {
    const [c] = parseEvmChainsFile([{ ...entry, dexes: [{ name: 'uniswapx', kind: 'uniswapx', settlement: WETH }] }]);
    expect(c.dexes).toEqual([{ name: 'uniswapx', kind: 'uniswapx', settlement: WETH.toLowerCase() }]);
    const cow = BUILT_IN_EVM_CHAINS.filter((x) => x.dexes.some((d) => d.kind === 'cow' && d.settlement === '0x9008d19f58aabd9ed0d60971565aa8510560ab41'));
    expect(cow.map((x) => x.slug)).toEqual(['eth', 'base', 'bsc']);
  });

  it('names the entry and field of a malformed v4, balancer-v2, settlement, infinity or fourmeme venue', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[{ ...entry, dexes: [{ name: 'a', kind: 'v4' }] }], /entry 0 \("devnet2"\) dexes\[0\].*"poolManager"/],
      [[{ ...entry, dexes: [{ name: 'a', kind: 'v4', poolManager: WETH, positionManager: '0x1' }] }], /dexes\[0\].*"positionManager"/],
      [[{ ...entry, dexes: [{ name: 'a', kind: 'v4', factory: WETH }] }], /dexes\[0\].*"factory".*not a field of a "v4" venue/],
      [[{ ...entry, dexes: [entry.dexes[0], { name: 'b', kind: 'balancer-v2', vault: 'vault' }] }], /dexes\[1\].*"vault"/],
      [[{ ...entry, dexes: [{ name: 'b', kind: 'balancer-v2', poolManager: WETH }] }], /dexes\[0\].*"poolManager".*not a field/],
      [[{ ...entry, dexes: [{ name: 'B', kind: 'balancer-v2', vault: WETH }] }], /dexes\[0\].*"name"/],
      [[{ ...entry, dexes: [{ name: 'cow', kind: 'cow', settlement: 'x' }] }], /dexes\[0\].*"settlement"/],
      [[{ ...entry, dexes: [{ name: 'cow', kind: 'cow', vault: WETH }] }], /dexes\[0\].*"vault".*not a field of a "cow" venue/],
      [[{ ...entry, dexes: [{ name: 'x', kind: 'curve', factory: WETH }] }], /dexes\[0\].*"kind".*"uniswapx", "infinity", "fourmeme"/],
      [[{ ...entry, dexes: [{ name: 'p', kind: 'infinity', vault: WETH }] }], /dexes\[0\].*"poolManagers".*non-empty array/],
      [[{ ...entry, dexes: [{ name: 'p', kind: 'infinity', vault: WETH, poolManagers: [WETH, '0x12'] }] }], /dexes\[0\].*"poolManagers\[1\]"/],
      [[{ ...entry, dexes: [{ name: 'f', kind: 'fourmeme', vault: WETH }] }], /dexes\[0\].*"vault".*not a field of a "fourmeme" venue/],
    ];
    for (const [json, re] of cases) {
      const e = errorOf(() => parseEvmChainsFile(json));
      expect(e.code).toBe('config_invalid');
      expect(e.message).toMatch(re);
    }
  });

  it('takes infinity and fourmeme venues from the file, addresses lowercased', () => {
    const [c] = parseEvmChainsFile([
      {
        ...entry,
        dexes: [
          { name: 'pancakeswap-infinity', kind: 'infinity', vault: WETH, poolManagers: [WETH] },
          { name: 'fourmeme', kind: 'fourmeme', tokenManager: '0x5c952063c7fc8610ffdb798152d69f0b9550762b' },
        ],
      },
    ]);
    expect(c.dexes).toEqual([
      { name: 'pancakeswap-infinity', kind: 'infinity', vault: WETH.toLowerCase(), poolManagers: [WETH.toLowerCase()] },
      { name: 'fourmeme', kind: 'fourmeme', tokenManager: '0x5c952063c7fc8610ffdb798152d69f0b9550762b' },
    ]);
  });

  it('adds a chain that is not built in', () => {
    const [c] = parseEvmChainsFile([entry]);
    expect(c).toMatchObject({ slug: 'devnet2', chainId: 31338, wrappedNative: WETH.toLowerCase(), confirmation: 12 });
    expect(c.dexes).toEqual([{ name: 'my-dex', kind: 'v2', factory: '0x5c69bee701ef814a2b6a3edd4b1652cb9cc5aa6f' }]);
    const all = mergeEvmChains(BUILT_IN_EVM_CHAINS, [c]);
    expect(all.map((x) => x.slug)).toEqual(['eth', 'base', 'bsc', 'monad', 'robinhood', 'devnet2']);
  });

  it('overrides settings of a built-in chain and adds venues to its table', () => {
    const parsed = parseEvmChainsFile([
      { slug: 'robinhood', wrappedNative: WETH, confirmation: 'finalized', dexes: [{ name: 'hood-swap', kind: 'v3', factory: '0x' + '11'.repeat(20) }] },
    ]);
    const all = mergeEvmChains(BUILT_IN_EVM_CHAINS, parsed);
    const r = all.find((c) => c.slug === 'robinhood')!;
    expect(r).toMatchObject({ chainId: 4663, confirmation: 'finalized', wrappedNative: WETH.toLowerCase() });
    // Robinhood's built-in table has only Uniswap V4 (issue 11); the file adds to it.
    expect(r.dexes.map((d) => d.name)).toEqual(['uniswap-v4', 'hood-swap']);
    const eth = mergeEvmChains(
      BUILT_IN_EVM_CHAINS,
      parseEvmChainsFile([{ slug: 'eth', dexes: [{ name: 'extra', kind: 'v2', factory: '0x' + '22'.repeat(20) }] }]),
    ).find((c) => c.slug === 'eth')!;
    expect(eth.dexes.map((d) => d.name)).toContain('uniswap-v2');
    expect(eth.dexes.map((d) => d.name)).toContain('extra');
    expect(all.length).toBe(BUILT_IN_EVM_CHAINS.length);
  });

  it('takes aggregator routers (an optional field) and keeps the built-in ones', () => {
    const [c] = parseEvmChainsFile([{ ...entry, aggregators: [{ name: 'my-agg', address: WETH }] }]);
    expect(c.aggregators).toEqual([{ name: 'my-agg', address: WETH.toLowerCase() }]);
    const eth = BUILT_IN_EVM_CHAINS.find((x) => x.slug === 'eth')!;
    // decisions.md's EVM aggregator slugs and the lead's rulings (docs/evm-routes.md), each known by
    // at least one router where the aggregator deployed one: OKX and Magpie have none on bsc, nor
    // Firebird and OKX on base.
    const common = ['0x', '1inch', 'enso', 'kyberswap', 'lifi', 'odos', 'openocean', 'paraswap'];
    const expected: Record<string, string[]> = { eth: [...common, 'firebird', 'magpie', 'okx'], base: [...common, 'magpie'], bsc: [...common, 'firebird'] };
    for (const [slug, want] of Object.entries(expected)) {
      const names = new Set(BUILT_IN_EVM_CHAINS.find((x) => x.slug === slug)!.aggregators.map((a) => a.name));
      expect([...names].sort()).toEqual(want.sort());
    }
    // Every router address is stored lowercase (the source compares receipts' `to` lowercase).
    for (const c of BUILT_IN_EVM_CHAINS) for (const a of c.aggregators) expect(a.address).toMatch(/^0x[0-9a-f]{40}$/);
    const [e2] = parseEvmChainsFile([{ slug: 'eth', aggregators: [{ name: 'my-agg', address: WETH }] }]);
    expect(e2.aggregators.length).toBe(eth.aggregators.length + 1);
  });

  it('takes named contracts (an optional field): a market maker named in the file names its trades, merged with the built-in ones by address', () => {
    const MM = '0x' + '4d'.repeat(20);
    const [c] = parseEvmChainsFile([{ ...entry, namedContracts: [{ name: 'my-mm', address: MM, role: 'venue' }] }]);
    expect(c.namedContracts).toEqual([{ name: 'my-mm', address: MM, role: 'venue' }]);
    // The wallet pays 100 USDC to a plain account that pays it 5 WETH back: a market maker's fill.
    const WALLET = '0x' + 'aa'.repeat(20);
    const USDC = '0x' + '11'.repeat(20);
    const pad = (a: string) => '0x' + a.slice(2).padStart(64, '0');
    const transfer = (token: string, from: string, to: string, v: bigint) => ({
      address: token,
      topics: [ERC20_TRANSFER_TOPIC, pad(from), pad(to)],
      data: '0x' + v.toString(16).padStart(64, '0'),
      blockNumber: '0x1',
      transactionHash: '0x' + '1'.repeat(64),
      transactionIndex: '0x0',
    });
    const receipt = {
      transactionHash: '0x' + '1'.repeat(64),
      transactionIndex: '0x0',
      blockNumber: '0x1',
      from: WALLET,
      to: MM,
      status: '0x1',
      logs: [transfer(USDC, WALLET, MM, 100n), transfer(WETH.toLowerCase(), MM, WALLET, 5n)],
    };
    const slugs = (chain: typeof c) => decodeReceipt(receipt, WALLET, chain).map((t) => t.dex ?? 'by the dex table');
    expect(slugs(c)).toEqual(['my-mm']);
    const [plain] = parseEvmChainsFile([entry]);
    expect(slugs(plain)).toEqual(['unknown']);
    // A built-in chain keeps its own named contracts and adds the file's.
    const eth = BUILT_IN_EVM_CHAINS.find((x) => x.slug === 'eth')!;
    const merged = mergeEvmChains(
      BUILT_IN_EVM_CHAINS,
      parseEvmChainsFile([{ slug: 'eth', namedContracts: [{ name: 'my-mm', address: MM, role: 'venue' }] }]),
    ).find((x) => x.slug === 'eth')!;
    expect(merged.namedContracts!.length).toBe(eth.namedContracts!.length + 1);
    for (const [bad, field] of [
      [{ name: 'My MM', address: MM, role: 'venue' }, 'name'],
      [{ name: 'my-mm', address: MM, role: 'pool' }, 'role'],
      [{ name: 'my-mm', address: '0x12', role: 'venue' }, 'address'],
    ] as const)
      expect(() => parseEvmChainsFile([{ ...entry, namedContracts: [bad] }])).toThrow(new RegExp(`namedContracts\\[0\\].*"${field}"`));
  });

  it('names the entry and the field of every error', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /top level.*must be a JSON array/],
      [[{ ...entry, chainId: -1 }], /entry 0 \("devnet2"\).*"chainId"/],
      [[entry, { ...entry, slug: 'x2', wrappedNative: '0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045' }], /entry 1 \("x2"\).*"wrappedNative".*EIP-55/],
      [[{ ...entry, explorerUrl: 'https://x.example/tx/' }], /"explorerUrl".*\{signature\}/],
      [[{ ...entry, confirmation: 'soon' }], /"confirmation"/],
      [[{ ...entry, dexes: [{ name: 'a', kind: 'v5', factory: WETH }] }], /dexes\[0\].*"kind"/],
      [[{ ...entry, dexes: [{ name: 'a', kind: 'v2', factory: '0x12' }] }], /dexes\[0\].*"factory"/],
      [[{ slug: 'newchain', chainId: 5 }], /entry 0 \("newchain"\).*"rpcUrl".*required/],
      [[{ ...entry, slug: 'Bad Slug' }], /entry 0.*"slug"/],
      [[{ ...entry, slug: 'sol' }], /"slug".*non-EVM/],
      [[entry, entry], /entry 1 \("devnet2"\).*"slug".*twice/],
      [[{ ...entry, rpcurl: 'x' }], /"rpcurl".*not a known field/],
      [[{ ...entry, rpcUrl: 'ftp://x' }], /"rpcUrl".*http/],
      [[{ ...entry, aggregators: [{ name: 'agg', address: '0x1' }] }], /aggregators\[0\].*"address"/],
    ];
    for (const [json, re] of cases) {
      const e = errorOf(() => parseEvmChainsFile(json));
      expect(e.code).toBe('config_invalid');
      expect(e.message).toMatch(re);
    }
  });
});

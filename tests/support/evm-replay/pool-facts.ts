import { encodeAbiParameters, encodePacked, getCreate2Address, keccak256, type Hex } from 'viem';
import type { RpcReceipt } from '../../../src/lib/chains/evm/decode/rpc-types.js';
import { ERC20_TRANSFER_TOPIC } from '../../../src/lib/chains/shared/uniswap-v2-events.js';

/**
 * A pool's `factory()` as the chain would answer it, found from facts alone: a pool contract's
 * address is CREATE2(deployer, salt, init code hash), and the salt is made of its tokens (and fee
 * tier or flag), so an address that CREATE2 reproduces from a venue's public deployment and the
 * tokens it moved in the receipt is that venue's pool. Nothing here reads an expected answer.
 */

/** How a venue derives its pools' salts. */
export type PoolShape =
  /** Uniswap V2 and its forks: keccak256(abi.encodePacked(token0, token1)). */
  | 'v2'
  /** Solidly pairs (Velodrome V1/V2, Aerodrome, Solidly V2): keccak256(abi.encodePacked(token0, token1, bool stable)). */
  | 'solidly'
  /** Uniswap V3 and its forks: keccak256(abi.encode(token0, token1, uint24 fee)). */
  | 'v3'
  /** Velodrome/Aerodrome Slipstream: keccak256(abi.encode(token0, token1, int24 tickSpacing)). */
  | 'slipstream'
  /** Algebra (QuickSwap V3, Camelot V3, Algebra Integral): keccak256(abi.encode(token0, token1)). */
  | 'algebra';

export interface PoolDeployment {
  /** Venue name, for diagnostics only (the slug a chain table gives it is the source's business). */
  name: string;
  shape: PoolShape;
  /** What the venue's pools answer to `factory()`, lowercase. */
  factory: string;
  /** The CREATE2 sender when it is not the factory (PancakeSwap V3's and Algebra's pool deployers). */
  deployer?: string;
  /** keccak256 of the pools' creation code. */
  initCodeHash?: string;
  /** EIP-1167 clones (Velodrome V2, Aerodrome): the implementation the minimal proxy delegates to. */
  implementation?: string;
  /** `v3`: candidate fee tiers; `slipstream`: candidate tick spacings. A match is checked by the address itself. */
  params?: number[];
  /** Where the factory, deployer and hash come from. */
  source: string;
}

export interface PoolFact {
  pool: string;
  deployment: PoolDeployment;
  token0: string;
  token1: string;
  /** Fee tier, tick spacing or stable flag (1/0), where the shape has one. */
  param?: number;
}

/** OpenZeppelin Clones' creation code of an EIP-1167 minimal proxy to `implementation`. */
export function cloneInitCodeHash(implementation: string): Hex {
  return keccak256(`0x3d602d80600a3d3981f3363d3d373d3d3d363d73${implementation.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`);
}

function salts(d: PoolDeployment, t0: Hex, t1: Hex): Array<{ salt: Hex; param?: number }> {
  switch (d.shape) {
    case 'v2':
      return [{ salt: keccak256(encodePacked(['address', 'address'], [t0, t1])) }];
    case 'solidly':
      return [true, false].map((stable) => ({ salt: keccak256(encodePacked(['address', 'address', 'bool'], [t0, t1, stable])), param: stable ? 1 : 0 }));
    case 'algebra':
      return [{ salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }], [t0, t1])) }];
    case 'v3':
    case 'slipstream':
      return (d.params ?? []).map((p) => ({
        salt: keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: d.shape === 'v3' ? 'uint24' : 'int24' }], [t0, t1, p])),
        param: p,
      }));
  }
}

/** The pool CREATE2 gives for these tokens (sorted here), if `pool` is one of this deployment's. */
export function matchPool(d: PoolDeployment, pool: string, a: string, b: string): PoolFact | null {
  const [token0, token1] = (a < b ? [a, b] : [b, a]) as [Hex, Hex];
  const bytecodeHash = (d.implementation ? cloneInitCodeHash(d.implementation) : d.initCodeHash) as Hex;
  const from = (d.deployer ?? d.factory) as Hex;
  for (const { salt, param } of salts(d, token0, token1)) {
    if (getCreate2Address({ from, salt, bytecodeHash }).toLowerCase() === pool)
      return { pool, deployment: d, token0, token1, ...(param !== undefined ? { param } : {}) };
  }
  return null;
}

const word = (t: string) => '0x' + t.slice(26).toLowerCase();

/** Every address's tokens: the ERC-20s it sent or received in these receipts (3-topic Transfer logs). */
export function tokensMovedBy(receipts: readonly RpcReceipt[]): Map<string, Set<string>> {
  const moved = new Map<string, Set<string>>();
  const add = (who: string, token: string) => {
    let s = moved.get(who);
    if (!s) moved.set(who, (s = new Set()));
    s.add(token);
  };
  for (const r of receipts)
    for (const l of r.logs) {
      if (l.topics.length !== 3 || l.topics[0].toLowerCase() !== ERC20_TRANSFER_TOPIC) continue;
      const token = l.address.toLowerCase();
      add(word(l.topics[1]), token);
      add(word(l.topics[2]), token);
    }
  return moved;
}

/**
 * `factory()` answers for a chain: an address is a pool of a deployment when CREATE2 over two of
 * the tokens it moved in the receipts gives it, or when a public source names it with its factory
 * (`named`: pool -> factory, for a venue whose init code hash was not found). Found lazily (a
 * source asks only some addresses) and remembered.
 */
export function createPoolFacts(deployments: readonly PoolDeployment[], receipts: readonly RpcReceipt[], named: ReadonlyMap<string, string> = new Map()) {
  const moved = tokensMovedBy(receipts);
  const found = new Map<string, PoolFact | null>();

  function poolFact(address: string): PoolFact | null {
    const a = address.toLowerCase();
    if (found.has(a)) return found.get(a)!;
    const tokens = [...(moved.get(a) ?? [])].sort();
    let fact: PoolFact | null = null;
    search: for (let i = 0; i < tokens.length; i++)
      for (let j = i + 1; j < tokens.length; j++)
        for (const d of deployments) {
          fact = matchPool(d, a, tokens[i], tokens[j]);
          if (fact) break search;
        }
    found.set(a, fact);
    return fact;
  }

  return { poolFact, factoryOf: (address: string) => named.get(address.toLowerCase()) ?? poolFact(address)?.deployment.factory };
}

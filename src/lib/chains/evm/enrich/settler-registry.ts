import { keccak256 } from 'viem';
import type { RpcLog } from '../decode/rpc-types.js';
import { ZERO_ADDRESS } from '../decode/transfer-log.js';
import { ERC20_TRANSFER_TOPIC } from '../../shared/uniswap-v2-events.js';

/**
 * 0x Settler's deployer registry: the facts, from 0xProject/0x-settler's public sources.
 *
 * - The registry lives at 0x00000000000004533Fe15556B1E086BB1A72cEae on every chain (README,
 *   "How do I find the most recent deployment?"; src/deployer/DeployerAddress.sol).
 * - It is ERC-721-shaped: a token id is a feature (README: 2 taker-submitted, 3 gasless
 *   metatransactions, 4 intents, 5 bridge), its owner the feature's current Settler. Every Settler
 *   is named by an ERC-721 `Transfer(from, to, tokenId)` (src/deployer/Deployer.sol): `deploy`
 *   emits one from the previous instance (or 0) to the new one, `remove` and `removeAll` one from
 *   the removed instance to the one before it (or 0). So every non-zero `from` or `to` of the
 *   registry's Transfers is a Settler, past or present; a removed (paused) one still was 0x's.
 * - An instance's address is fixed by (feature, chain id, nonce), the nonce counting the feature's
 *   deployments on that chain from 1: CREATE2 of a 38-byte shim from the registry with salt
 *   `feature << 128 | chainid << 64 | nonce`, then the shim's CREATE at nonce 1 (Create3.sol,
 *   `predict`; README, `computeGenuineSettler`). That gives the built-in list: the instances of
 *   features 2 to 5 and nonces 1 to 128 on the chain, computed, for where an RPC cannot serve the
 *   registry's logs. Checked against real transactions sent to Settlers (tests/evm/settlers.test.ts):
 *   eth nonces 6, 7 and 16 of feature 2 (December 2024, March 2025, April 2026), arbitrum,
 *   optimism and polygon nonces 8 and 9 (March 2025): about nine a year on eth, so 128 lasts.
 */

export const SETTLER_REGISTRY = '0x00000000000004533fe15556b1e086bb1a72ceae';

/** ERC-721 `Transfer(address indexed from, address indexed to, uint256 indexed tokenId)`: ERC-20's signature, with 4 topics. */
export const REGISTRY_TRANSFER_TOPIC = ERC20_TRANSFER_TOPIC;

/** The slug of a route through a Settler (decisions.md, "Real routes on EVM"). */
export const SETTLER_SLUG = '0x';

/** The Settlers the registry's logs name (both sides of each of its Transfers), lowercase. */
export function settlersNamedBy(logs: readonly RpcLog[]): Set<string> {
  const out = new Set<string>();
  for (const l of logs) {
    if (l.address.toLowerCase() !== SETTLER_REGISTRY || l.topics.length !== 4 || l.topics[0].toLowerCase() !== REGISTRY_TRANSFER_TOPIC) continue;
    for (const t of [l.topics[1], l.topics[2]]) {
      const a = '0x' + t.slice(-40).toLowerCase();
      if (a !== ZERO_ADDRESS) out.add(a);
    }
  }
  return out;
}

/**
 * keccak-256 of the shim's init code (Create3.sol `_SHIM_INITHASH`), and of its variant without
 * PUSH0 for chains before Shanghai (`_SHIM_INITHASH_LONDON`): both are the registry's, so both
 * sets of addresses are genuine wherever one was used.
 */
const SHIM_INIT_HASHES = [
  '3bf3f97f0be1e2c00023033eefeb4fc062ac552ff36778b17060d90b6764902f',
  '1774bbdc4a308eaf5967722c7a4708ea7a3097859cb8768a10611448c29981c3',
];
const FEATURES = [2, 3, 4, 5];
const NONCES = 128;

const bytesOf = (hexDigits: string) => Uint8Array.from(hexDigits.match(/../g)!, (b) => parseInt(b, 16));
const hexOf = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const REGISTRY_BYTES = bytesOf(SETTLER_REGISTRY.slice(2));
const initHashBytes = new Map(SHIM_INIT_HASHES.map((h) => [h, bytesOf(h)]));

/** Writes `n` (below 2^53) as a big-endian 64-bit word at `at`. */
function putUint64(buf: Uint8Array, at: number, n: number): void {
  const v = new DataView(buf.buffer, buf.byteOffset + at, 8);
  v.setUint32(0, Math.floor(n / 2 ** 32));
  v.setUint32(4, n >>> 0);
}

/** The address of the Settler of `feature` deployed `nonce`-th on chain `chainId` (Create3.predict). */
export function predictSettler(chainId: number, feature: number, nonce: number, shimInitHash = SHIM_INIT_HASHES[0]): string {
  // 0xff ‖ registry ‖ salt ‖ init hash: the shim's CREATE2 address; salt = feature (128 bits) ‖ chain id ‖ nonce (64 bits each).
  const create2 = new Uint8Array(85);
  create2[0] = 0xff;
  create2.set(REGISTRY_BYTES, 1);
  putUint64(create2, 29, feature);
  putUint64(create2, 37, chainId);
  putUint64(create2, 45, nonce);
  create2.set(initHashBytes.get(shimInitHash) ?? bytesOf(shimInitHash), 53);
  const shim = keccak256(create2, 'bytes').subarray(12);
  // rlp([shim, 1]) = 0xd6 0x94 ‖ shim ‖ 0x01: the shim's first (and only) CREATE.
  const create = new Uint8Array(23);
  create.set([0xd6, 0x94]);
  create.set(shim, 2);
  create[22] = 0x01;
  return '0x' + hexOf(keccak256(create, 'bytes').subarray(12));
}

const builtIn = new Map<number, ReadonlySet<string>>();

/**
 * The built-in list of a chain's Settlers: every instance the registry can have deployed there
 * for features 2-5 up to nonce 128 (1,024 addresses, 50-150 ms of hashing here, once per chain and
 * process), computed only where the registry's logs could not be read whole.
 */
export function builtInSettlers(chainId: number): ReadonlySet<string> {
  let s = builtIn.get(chainId);
  if (!s) {
    const out = new Set<string>();
    for (const h of SHIM_INIT_HASHES) for (const f of FEATURES) for (let n = 1; n <= NONCES; n++) out.add(predictSettler(chainId, f, n, h));
    builtIn.set(chainId, (s = out));
  }
  return s;
}

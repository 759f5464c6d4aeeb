import { createRequire } from 'node:module';
import { decodeFunctionResult, encodeDeployData, encodeFunctionData, type Abi, type Hex } from 'viem';
import { createRpc } from './anvil.js';

/**
 * Compiled contracts from npm packages (no compiler here) and a small helper to deploy, send and
 * read through an unlocked anvil account.
 */
const require = createRequire(import.meta.url);

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

function load(id: string): Artifact {
  const j = require(id) as { abi: Abi; bytecode?: string; evm?: { bytecode: { object: string } } };
  const code = j.bytecode ?? j.evm!.bytecode.object;
  return { abi: j.abi, bytecode: (code.startsWith('0x') ? code : '0x' + code) as Hex };
}

export const ARTIFACTS = {
  weth9: () => load('@uniswap/v2-periphery/build/WETH9.json'),
  v2Factory: () => load('@uniswap/v2-core/build/UniswapV2Factory.json'),
  v2Pair: () => load('@uniswap/v2-core/build/UniswapV2Pair.json'),
  v2Router: () => load('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
  deflating: () => load('@uniswap/v2-periphery/build/DeflatingERC20.json'),
  v1Exchange: () => load('@uniswap/v2-periphery/build/UniswapV1Exchange.json'),
  v1Factory: () => load('@uniswap/v2-periphery/build/UniswapV1Factory.json'),
  v3Factory: () => load('@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
  v3Router: () => load('@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json'),
  v3Positions: () => load('@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json'),
  erc20Fixed: () => load('@openzeppelin/contracts/build/contracts/ERC20PresetFixedSupply.json'),
  entryPoint: () => load('@account-abstraction/contracts/artifacts/EntryPoint.json'),
  simpleAccountFactory: () => load('@account-abstraction/contracts/artifacts/SimpleAccountFactory.json'),
  simpleAccount: () => load('@account-abstraction/contracts/artifacts/SimpleAccount.json'),
};

export interface Receipt {
  transactionHash: Hex;
  blockNumber: Hex;
  transactionIndex: Hex;
  status: Hex;
  gasUsed: Hex;
  effectiveGasPrice: Hex;
  contractAddress: Hex | null;
  from: Hex;
}

const hex = (n: bigint | number) => '0x' + BigInt(n).toString(16);

export function createChainDriver(url: string) {
  const rpc = createRpc(url);

  async function receipt(hash: string): Promise<Receipt> {
    // anvil can return the hash a moment before the receipt is queryable.
    for (let i = 0; i < 400; i++) {
      const r = await rpc.call<Receipt | null>('eth_getTransactionReceipt', [hash]);
      if (r) return r;
      await new Promise((res) => setTimeout(res, 5));
    }
    throw new Error(`no receipt for ${hash}`);
  }

  /** Sends from an unlocked account with explicit gas (anvil's estimate undershoots V3 multicalls). */
  async function sendRaw(from: string, to: string | null, data: Hex, value = 0n, gas = 3_000_000n): Promise<Receipt> {
    const tx: Record<string, string> = { from, data, value: hex(value), gas: hex(gas) };
    if (to) tx.to = to;
    const hash = await rpc.call<string>('eth_sendTransaction', [tx]);
    return receipt(hash);
  }

  async function send(from: string, to: string, a: Artifact, fn: string, args: unknown[] = [], value = 0n, gas?: bigint): Promise<Receipt> {
    const r = await sendRaw(from, to, encodeFunctionData({ abi: a.abi, functionName: fn, args } as never), value, gas);
    if (r.status !== '0x1') throw new Error(`${fn} reverted (${r.transactionHash})`);
    return r;
  }

  async function deploy(from: string, a: Artifact, args: unknown[] = []): Promise<Hex> {
    const r = await sendRaw(from, null, encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args } as never), 0n, 12_000_000n);
    if (r.status !== '0x1' || !r.contractAddress) throw new Error(`deploy failed (${r.transactionHash})`);
    return r.contractAddress;
  }

  async function read<T = unknown>(to: string, a: Artifact, fn: string, args: unknown[] = [], block: string = 'latest'): Promise<T> {
    const data = encodeFunctionData({ abi: a.abi, functionName: fn, args } as never);
    const out = await rpc.call<Hex>('eth_call', [{ to, data }, block]);
    return decodeFunctionResult({ abi: a.abi, functionName: fn, data: out } as never) as T;
  }

  async function ethBalance(a: string): Promise<bigint> {
    return BigInt(await rpc.call<string>('eth_getBalance', [a, 'latest']));
  }

  async function mine(blocks: number): Promise<void> {
    if (blocks > 0) await rpc.call('anvil_mine', [hex(blocks)]);
  }

  async function blockTimestamp(blockNumber: string): Promise<number> {
    const b = await rpc.call<{ timestamp: string }>('eth_getBlockByNumber', [blockNumber, false]);
    return Number(BigInt(b.timestamp));
  }

  return { rpc, send, sendRaw, deploy, read, ethBalance, mine, blockTimestamp, receipt };
}

export type ChainDriver = ReturnType<typeof createChainDriver>;

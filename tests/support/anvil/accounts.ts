import { createRequire } from 'node:module';
import { concat, createWalletClient, encodeFunctionData, encodePacked, http, pad, type Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Artifact, ChainDriver } from './contracts.js';

/**
 * Smart accounts beyond ERC-4337 on anvil, from npm artifacts: a Safe 1.4.1 (@safe-global/
 * safe-contracts) whose owner sends its executions, and an EIP-7702 account (anvil on Prague, the
 * authorization signed with viem) delegated to Safe's MultiSendCallOnly, whose calls a relayer
 * sends to the account's own address.
 */
const require = createRequire(import.meta.url);
const ZERO = '0x0000000000000000000000000000000000000000';

export function safeArtifact(name: string): Artifact {
  const j = require(`@safe-global/safe-contracts/build/artifacts/contracts/${name}.json`) as { abi: Abi; bytecode: Hex };
  return { abi: j.abi, bytecode: j.bytecode };
}

export interface SafeAccount {
  address: string;
  /** Executes a call as the Safe (the owner sends the transaction); resolves with its hash. */
  exec(to: string, value: bigint, data: Hex): Promise<string>;
}

/** A Safe with one owner and threshold 1, funded with `eth` wei. */
export async function createSafe(d: ChainDriver, deployer: string, owner: string, eth: bigint): Promise<SafeAccount> {
  const Safe = safeArtifact('Safe.sol/Safe');
  const Factory = safeArtifact('proxies/SafeProxyFactory.sol/SafeProxyFactory');
  const singleton = await d.deploy(deployer, Safe);
  const proxyFactory = await d.deploy(deployer, Factory);
  const setup = encodeFunctionData({ abi: Safe.abi, functionName: 'setup', args: [[owner], 1n, ZERO, '0x', ZERO, ZERO, 0n, ZERO] } as never);
  const created = await d.send(owner, proxyFactory, Factory, 'createProxyWithNonce', [singleton, setup, 1n], 0n, 1_000_000n);
  const logs = (await d.rpc.call<{ logs: { address: string; topics: string[] }[] }>('eth_getTransactionReceipt', [created.transactionHash])).logs;
  const address = ('0x' + logs.find((l) => l.address.toLowerCase() === proxyFactory.toLowerCase())!.topics[1].slice(26)).toLowerCase();
  await d.sendRaw(deployer, address, '0x', eth);
  // An owner's approval in place of a signature: r = owner, s = 0, v = 1 (the sender is that owner).
  const ownerSignature = concat([pad(owner as Hex), pad('0x00'), '0x01']);
  return {
    address,
    async exec(to, value, data) {
      const r = await d.send(owner, address, Safe, 'execTransaction', [to, value, data, 0, 0n, 0n, 0n, ZERO, ZERO, ownerSignature], 0n, 2_000_000n);
      if (r.status !== '0x1') throw new Error(`Safe execution reverted (${r.transactionHash})`);
      return r.transactionHash;
    },
  };
}

export interface DelegatedAccount {
  address: string;
  /** A relayer sends these calls, batched through MultiSendCallOnly, to the account's address. */
  relay(calls: { to: string; value: bigint; data: Hex }[]): Promise<string>;
}

/**
 * An EOA (by key) that delegates its code to MultiSendCallOnly with its first relayed call.
 * MultiSendCallOnly has no receive(): the account cannot be paid plain ETH by a contract.
 */
export async function createDelegatedAccount(
  d: ChainDriver,
  o: { deployer: string; rpcUrl: string; chainId: number; key: Hex; relayerKey: Hex; eth: bigint },
): Promise<DelegatedAccount> {
  const multiSend = safeArtifact('libraries/MultiSendCallOnly.sol/MultiSendCallOnly');
  const delegate = await d.deploy(o.deployer, multiSend);
  const account = privateKeyToAccount(o.key);
  const address = account.address.toLowerCase();
  const chain = { id: o.chainId } as never;
  const relayer = createWalletClient({ account: privateKeyToAccount(o.relayerKey), transport: http(o.rpcUrl), chain });
  const authorization = await createWalletClient({ account, transport: http(o.rpcUrl), chain }).signAuthorization({
    account,
    contractAddress: delegate as Hex,
    chainId: o.chainId,
    nonce: 0,
  });
  await d.sendRaw(o.deployer, address, '0x', o.eth);
  let first = true;
  return {
    address,
    async relay(calls) {
      const data = encodeFunctionData({
        abi: multiSend.abi,
        functionName: 'multiSend',
        args: [
          concat(
            calls.map((c) =>
              encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, c.to as Hex, c.value, BigInt((c.data.length - 2) / 2), c.data]),
            ),
          ),
        ],
      } as never);
      const hash = await relayer.sendTransaction({
        to: address as Hex,
        data,
        gas: 2_000_000n,
        ...(first ? { authorizationList: [authorization] } : {}),
      } as never);
      first = false;
      const r = await d.receipt(hash);
      if (r.status !== '0x1') throw new Error(`relayed call reverted (${hash})`);
      return hash;
    },
  };
}

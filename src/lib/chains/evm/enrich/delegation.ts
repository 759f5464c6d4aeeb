import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { ethGetCode } from '../rpc-methods.js';

/** Whether the wallet's code is an EIP-7702 delegation. */
export type IsDelegated = (wallet: string, signal?: AbortSignal) => Promise<boolean>;

/**
 * Whether the wallet's code is an EIP-7702 delegation (0xef0100 + the delegate's address), asked
 * once per source and wallet, at the chain's head: a delegation changed since the transaction is
 * not seen (the decisions.md rule needs the code the call ran, which only a trace would give).
 * A failed question is forgotten, so the next walk asks again.
 */
export function createDelegationCheck({ rpc }: { rpc: RpcTransport }): IsDelegated {
  const delegations = new Map<string, Promise<boolean>>();
  return function isDelegated(wallet, signal) {
    let p = delegations.get(wallet);
    if (!p) {
      p = ethGetCode(rpc, wallet, signal).then((code) => /^0xef0100[0-9a-f]{40}$/i.test(code ?? ''));
      p.catch(() => delegations.delete(wallet));
      delegations.set(wallet, p);
    }
    return p;
  };
}

/**
 * The Solana JSON-RPC methods this family uses: their calls and the shapes of their results, sent
 * through the shared JSON-RPC client (src/lib/rpc/json-rpc.ts) by the source and the token
 * resolver, which choose batching, priorities and the item-by-item reading per use.
 */
import type { RpcCall } from '../../rpc/json-rpc.js';

export type Commitment = 'confirmed' | 'finalized';

/** One entry of getSignaturesForAddress (newest first; failed transactions have `err`). */
export interface SignatureInfo {
  signature: string;
  slot: number;
  err: unknown;
  blockTime?: number | null;
}

export interface SignaturesConfig {
  limit: number;
  commitment: Commitment;
  before?: string;
  until?: string;
}

export const getSignaturesForAddress = (wallet: string, config: SignaturesConfig): RpcCall => ({
  method: 'getSignaturesForAddress',
  params: [wallet, config],
});

/** A transaction in the `json` encoding, v0 transactions included (a node refuses them without maxSupportedTransactionVersion). */
export const getTransaction = (signature: string, commitment: Commitment): RpcCall => ({
  method: 'getTransaction',
  params: [signature, { encoding: 'json', maxSupportedTransactionVersion: 0, commitment }],
});

/** The wallet's token accounts of one token program, their first `bytes` bytes only (mint 0-32, owner, amount 64-72). */
export const getTokenAccountsByOwner = (wallet: string, programId: string, commitment: Commitment, bytes: number): RpcCall => ({
  method: 'getTokenAccountsByOwner',
  params: [wallet, { programId }, { encoding: 'base64', commitment, dataSlice: { offset: 0, length: bytes } }],
});

export interface TokenAccountsResult {
  value?: { account?: { data?: [string, string] } }[];
}

/** Up to 100 accounts in one call (the RPC's limit), base64. */
export const getMultipleAccounts = (keys: readonly string[], commitment: Commitment): RpcCall => ({
  method: 'getMultipleAccounts',
  params: [keys, { encoding: 'base64', commitment }],
});

export interface AccountInfo {
  data: [string, string] | string;
  owner: string;
}

export interface MultipleAccountsResult {
  value: (AccountInfo | null)[];
}

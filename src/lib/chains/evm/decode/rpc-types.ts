/** The JSON-RPC shapes of a log and a receipt as the decoders read them (lowercase hex strings). */

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex?: string;
  /** Not standard JSON-RPC, but anvil, reth and recent geth add it. */
  blockTimestamp?: string;
}

export interface RpcReceipt {
  transactionHash: string;
  transactionIndex: string;
  blockNumber: string;
  from: string;
  to: string | null;
  status?: string;
  logs: RpcLog[];
}

export { createEvmSource, evmPosition, suggestedRange, type EvmSource, type EvmSourceOptions } from './source.js';
export {
  BUILT_IN_EVM_CHAINS,
  CANONICAL_ENTRY_POINTS,
  parseEvmChainsFile,
  mergeEvmChains,
  dexForFactory,
  rpcUrlEnvName,
  rpcUrlFor,
  type EvmChainConfig,
  type EvmDexConfig,
  type EvmAggregatorConfig,
  type EvmConfirmation,
} from './registry.js';
export { normalizeEvmAddress, toChecksumAddress } from './address.js';
export { createRpcTransport, batchRetrying, type RpcTransport, type RpcStats } from './rpc.js';
export { decodeReceipt } from './decoder.js';

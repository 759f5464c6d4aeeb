import type { ChainSource, TokenCache } from '../core/chain-source.js';
import { HistoryError } from '../core/errors.js';
import type { Offload } from '../core/offload.js';
import type { ChainInfo } from '../chains/registry.js';
import { createEvmSource } from '../chains/evm/source.js';
import { createSolanaSource } from '../chains/sol/source.js';

/** Builds the chain source of a chain: the one place that maps a chain family to its source. */
export type SourceFactory = (chain: ChainInfo, deps: SourceDependencies) => ChainSource;

export interface SourceDependencies {
  tokens: TokenCache;
  /** The server's worker threads, for decoding off the main thread. */
  offload?: Offload;
}

/** A source for a chain this version cannot read yet: every walk fails with upstream_unavailable. */
function unavailableSource(chain: ChainInfo, why: string): ChainSource {
  return {
    chain: chain.slug,
    history() {
      return {
        [Symbol.asyncIterator]: () => ({
          next: () => Promise.reject(new HistoryError('upstream_unavailable', why, { retryable: false })),
        }),
      };
    },
  };
}

export const defaultSourceFactory: SourceFactory = (chain, { tokens, offload }) => {
  switch (chain.family) {
    case 'solana':
      return createSolanaSource({
        rpcUrl: chain.rpcUrl,
        tokens,
        offload,
        batchSize: chain.rpc.batchSize,
        maxInFlight: chain.rpc.maxInFlight,
        requestsPerSecond: chain.rpc.requestsPerSecond,
        transportOptions: chain.rpc.timeoutMs ? { timeoutMs: chain.rpc.timeoutMs } : undefined,
      });
    case 'evm':
      return createEvmSource({
        chain: chain.evm!,
        rpcUrl: chain.rpcUrl,
        tokens,
        batchSize: chain.rpc.batchSize,
        timeoutMs: chain.rpc.timeoutMs,
      });
    default:
      return unavailableSource(chain, `Trade history for ${chain.slug} is not available in this version of the server yet.`);
  }
};

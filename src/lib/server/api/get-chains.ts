import { DEFAULT_CHAIN } from '../../chains/registry.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';

/** `GET /v1/chains` (no key): the chains served, what a browser needs to decode one itself (never the RPC URL), and how the server finds an EVM wallet's transactions. */
export function getChains(api: Api): Response {
  return json({
    chains: api.chains.list().map((c) => ({
      slug: c.slug,
      family: c.family,
      nativeSymbol: c.nativeSymbol,
      chainId: c.chainId,
      explorerUrl: c.explorerUrl,
      default: c.slug === DEFAULT_CHAIN,
      ...(c.evm
        ? {
            evm: {
              wrappedNative: c.evm.wrappedNative,
              confirmation: c.evm.confirmation,
              dexes: c.evm.dexes,
              entryPoints: c.evm.entryPoints,
              aggregators: c.evm.aggregators,
              // `ots` or `logs` once the chain's first walk chose, null before (decided then, from what the node answers).
              discovery: api.discoveryOf(c.slug) ?? null,
            },
          }
        : {}),
    })),
  });
}

import { toPublicChain } from '../../chains/registry.js';
import type { Api } from './create-api.js';
import { json } from './respond.js';

/** `GET /v1/chains` (no key): the chains served, what a browser needs to decode one itself (never the RPC URL), and how the server finds an EVM wallet's transactions. */
export function getChains(api: Api): Response {
  return json({ chains: api.chains.list().map((c) => toPublicChain(c, api.discoveryOf(c.slug) ?? null)) });
}

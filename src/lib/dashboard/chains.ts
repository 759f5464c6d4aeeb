/** Chains known before /v1/chains answers (first visit offline): the built-in table's; the server's list replaces it. */
import { BUILT_IN_CHAINS } from '../chains/registry.js';
import type { ChainInfo } from './api-client.js';

export const FALLBACK_CHAINS: ChainInfo[] = [...BUILT_IN_CHAINS];

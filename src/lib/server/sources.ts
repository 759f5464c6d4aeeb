import type { ChainSource } from '../core/chain-source.js';
import type { ChainInfo } from '../chains/registry.js';
import { FAMILIES, type SourceDependencies } from '../chains/families.js';

export type { SourceDependencies } from '../chains/families.js';

/** Builds the chain source of a chain (tests pass scripted ones). */
export type SourceFactory = (chain: ChainInfo, deps: SourceDependencies) => ChainSource | Promise<ChainSource>;

/** The app's sources: whatever the chain's family builds (chains/families.ts). */
export const defaultSourceFactory: SourceFactory = (chain, deps) => FAMILIES[chain.family].createSource(chain, deps);

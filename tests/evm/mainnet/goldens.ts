import { GOLDEN as ARBITRUM_OPTIMISM } from './golden-arbitrum-optimism.js';
import { GOLDEN as BASE_BSC_MONAD } from './golden-base-bsc-monad.js';
import { GOLDEN as ETH_1 } from './golden-eth-1.js';
import { GOLDEN as ETH_2 } from './golden-eth-2.js';
import { GOLDEN as POLYGON_GNOSIS_SCROLL_HYPEREVM } from './golden-polygon-gnosis-scroll-hyperevm.js';
import type { MainnetGolden } from './types.js';

/** Every golden entry of the mainnet set, in the files' order (eth first). */
export const GOLDENS: readonly MainnetGolden[] = [...ETH_1, ...ETH_2, ...BASE_BSC_MONAD, ...ARBITRUM_OPTIMISM, ...POLYGON_GNOSIS_SCROLL_HYPEREVM];

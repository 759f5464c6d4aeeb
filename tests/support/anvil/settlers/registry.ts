import { encodeFunctionData, type Hex } from 'viem';
import { SETTLER_REGISTRY } from '../../../../src/lib/chains/evm/enrich/settler-registry.js';
import { compileSolidity } from '../compile.js';
import { createChainDriver, type Receipt } from '../contracts.js';

/** anvil's first development account (unlocked). */
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/**
 * 0x's Settler registry on an anvil chain: SettlerRegistryStub.sol's code at the registry's
 * address; `name` emits the Transfer the real registry emits when it deploys (or removes) a Settler.
 */
export async function placeSettlerRegistry(rpcUrl: string) {
  const d = createChainDriver(rpcUrl);
  const stub = compileSolidity(new URL('./SettlerRegistryStub.sol', import.meta.url)).SettlerRegistryStub;
  const deployed = await d.deploy(DEPLOYER, stub);
  await d.rpc.call('anvil_setCode', [SETTLER_REGISTRY, await d.rpc.call<Hex>('eth_getCode', [deployed, 'latest'])]);
  return {
    /** The registry names `instance` the Settler of `feature` after `previous` (0 for the first). */
    name: (previous: string, instance: string, feature = 2): Promise<Receipt> =>
      d.sendRaw(DEPLOYER, SETTLER_REGISTRY, encodeFunctionData({ abi: stub.abi, functionName: 'name', args: [previous, instance, BigInt(feature)] } as never)),
  };
}

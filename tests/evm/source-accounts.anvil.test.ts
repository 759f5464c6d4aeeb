import { encodeFunctionData, parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryTokenCache } from '../../src/lib/core/chain-source.js';
import { formatUnits } from '../../src/lib/core/decimal.js';
import { createEvmSource } from '../../src/lib/chains/evm/source.js';
import type { EvmChainConfig } from '../../src/lib/chains/evm/registry.js';
import { startAnvil, type AnvilNode } from '../support/anvil/anvil.js';
import { ARTIFACTS, createChainDriver, type ChainDriver } from '../support/anvil/contracts.js';
import { createDelegatedAccount, createSafe } from '../support/anvil/accounts.js';

/**
 * A Safe (1.4.1, from @safe-global/safe-contracts) whose owner sends its executions, and an
 * EIP-7702 account (anvil on Prague, the authorization signed with viem) whose code is Safe's
 * MultiSendCallOnly and whose calls a relayer sends: both trade on a real Uniswap V2 pair, and
 * the source must give each its own trades, with the ground truth taken from balances only
 * (token and WETH balanceOf and ETH balance before and after each swap; neither account pays gas).
 */
// anvil's development accounts: the deployer and an owner (unlocked), a relayer and an EOA by key
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const OWNER = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
const RELAYER_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6' as Hex;
const EOA_KEY = '0x47e179ec197488593b187f80a8eb0da3e2a8c4fc69ea4c4458b6f6a4e5a9b1f3' as Hex;
const E18 = 10n ** 18n;
const DEADLINE = 2n ** 40n;

interface Truth {
  signature: string;
  side: 'buy' | 'sell';
  amountSol: string;
  amount: string;
}

let node: AnvilNode;
let d: ChainDriver;
let chain: EvmChainConfig;
let safe: string;
let eoa: string;
const truth = new Map<string, Truth[]>();

beforeAll(async () => {
  node = await startAnvil({ chainId: 31339, hardfork: 'prague' });
  d = createChainDriver(node.url);
  const A = { weth: ARTIFACTS.weth9(), factory: ARTIFACTS.v2Factory(), router: ARTIFACTS.v2Router(), erc20: ARTIFACTS.erc20Fixed() };
  const weth = (await d.deploy(DEPLOYER, A.weth)).toLowerCase();
  const factory = (await d.deploy(DEPLOYER, A.factory, [DEPLOYER])).toLowerCase();
  const router = (await d.deploy(DEPLOYER, A.router, [factory, weth])).toLowerCase();
  const tok = (await d.deploy(DEPLOYER, A.erc20, ['Kappa', 'KAP', 10n ** 9n * E18, DEPLOYER])).toLowerCase();
  await d.send(DEPLOYER, tok, A.erc20, 'approve', [router, 2n ** 255n]);
  await d.send(DEPLOYER, router, A.router, 'addLiquidityETH', [tok, 1_000_000n * E18, 0n, 0n, DEPLOYER, DEADLINE], 100n * E18, 6_000_000n);
  chain = {
    slug: 'devaccounts',
    chainId: 31339,
    rpcUrl: node.url,
    nativeSymbol: 'ETH',
    wrappedNative: weth,
    explorerUrl: 'http://127.0.0.1/tx/{signature}',
    confirmation: 'latest',
    dexes: [{ name: 'uniswap-v2', kind: 'v2', factory }],
    entryPoints: [],
    aggregators: [],
  };

  // The native side as the account holds it: ETH, plus WETH (the EIP-7702 account's delegate,
  // MultiSendCallOnly, has no receive(): it sells for WETH).
  const balances = async (who: string) => ({
    eth: (await d.ethBalance(who)) + ((await d.read<bigint>(weth, A.erc20, 'balanceOf', [who])) as bigint),
    tok: (await d.read<bigint>(tok, A.erc20, 'balanceOf', [who])) as bigint,
  });
  const record = async (who: string, side: 'buy' | 'sell', run: () => Promise<string>) => {
    const before = await balances(who);
    const hash = await run();
    const after = await balances(who);
    const eth = after.eth - before.eth;
    const tk = after.tok - before.tok;
    const list = truth.get(who) ?? [];
    list.unshift({ signature: hash, side, amountSol: formatUnits(eth < 0n ? -eth : eth, 18), amount: formatUnits(tk < 0n ? -tk : tk, 18) });
    truth.set(who, list);
  };
  const buyData = (to: string) =>
    encodeFunctionData({ abi: A.router.abi, functionName: 'swapExactETHForTokens', args: [0n, [weth, tok], to, DEADLINE] } as never);
  const sellData = (to: string, amount: bigint) =>
    encodeFunctionData({ abi: A.router.abi, functionName: 'swapExactTokensForETH', args: [amount, 0n, [tok, weth], to, DEADLINE] } as never);
  const approveData = encodeFunctionData({ abi: A.erc20.abi, functionName: 'approve', args: [router, 2n ** 255n] } as never);

  // --- The Safe: one owner, threshold 1, executions sent by the owner ---------------------------
  const theSafe = await createSafe(d, DEPLOYER, OWNER, 20n * E18);
  safe = theSafe.address;
  const exec = (to: string, value: bigint, data: Hex) => theSafe.exec(to, value, data);
  await exec(tok, 0n, approveData);
  await record(safe, 'buy', () => exec(router, parseEther('1.5'), buyData(safe)));
  await record(safe, 'buy', () => exec(router, parseEther('0.25'), buyData(safe)));
  await record(safe, 'sell', () => exec(router, 0n, sellData(safe, 1_000n * E18)));

  // --- The EIP-7702 account: delegated to MultiSendCallOnly, calls sent by a relayer -------------
  const account = await createDelegatedAccount(d, {
    deployer: DEPLOYER,
    rpcUrl: node.url,
    chainId: 31339,
    key: EOA_KEY,
    relayerKey: RELAYER_KEY,
    eth: 20n * E18,
  });
  eoa = account.address;
  await account.relay([{ to: tok, value: 0n, data: approveData }]);
  await record(eoa, 'buy', () => account.relay([{ to: router, value: parseEther('2'), data: buyData(eoa) }]));
  const sellForWeth = encodeFunctionData({
    abi: A.router.abi,
    functionName: 'swapExactTokensForTokens',
    args: [500n * E18, 0n, [tok, weth], eoa, DEADLINE],
  } as never);
  await record(eoa, 'sell', () => account.relay([{ to: router, value: 0n, data: sellForWeth }]));
  // a plain payment to the EOA, sent by someone else: not a trade
  await d.sendRaw(OWNER, eoa, '0x', 1n);
  await d.mine(2);
}, 120_000);

afterAll(() => node?.stop());

async function walk(wallet: string) {
  const src = createEvmSource({ chain, rpcUrl: node.url, tokens: createMemoryTokenCache() });
  const out = [];
  for await (const b of src.history({ wallet })) out.push(...b.trades);
  return out;
}

describe('smart accounts beyond ERC-4337, on anvil', () => {
  it('a Safe gets the swaps its owner executed through it, as the balances moved', async () => {
    expect(truth.get(safe)).toHaveLength(3);
    const trades = await walk(safe);
    expect(trades.map((t) => ({ signature: t.signature, side: t.side, amountSol: t.amountSol, amount: t.amount }))).toEqual(truth.get(safe));
    expect(new Set(trades.map((t) => `${t.token}/${t.dex}`))).toEqual(new Set(['KAP/uniswap-v2']));
  });

  it('an EIP-7702 account gets the swaps a relayer sent to its address, as the balances moved', async () => {
    expect(await d.rpc.call<string>('eth_getCode', [eoa, 'latest'])).toMatch(/^0xef0100/);
    expect(truth.get(eoa)).toHaveLength(2);
    const trades = await walk(eoa);
    expect(trades.map((t) => ({ signature: t.signature, side: t.side, amountSol: t.amountSol, amount: t.amount }))).toEqual(truth.get(eoa));
  });

  it('the owner and the relayer, who sent those transactions, have no trade in them', async () => {
    expect(await walk(OWNER)).toEqual([]);
    expect(await walk(privateKeyToAccount(RELAYER_KEY).address.toLowerCase())).toEqual([]);
  });
});

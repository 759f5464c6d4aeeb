import type { MainnetGolden } from './types.js';

/**
 * Expected trades for the base, bsc and monad transactions of the real mainnet set, in MANIFEST order, derived by hand
 * from each receipt's logs (and the explorer's internal rows) under decisions.md. Log numbers are the receipt's logIndex.
 * Token symbols and decimals come from tokens.json where it has them; otherwise from the token's public listing, named in
 * `why` (cbETH, TYBG, AERO, USDbC, VIRTUAL, WELL, superOETHb on base; FRAX, ETH, USDC on bsc).
 */
export const GOLDEN: MainnetGolden[] = [
  // ---------------------------------------------------------------- base
  {
    hash: '0x3e88cd749ab657299b10a6f079b2b63380edb5f2f700c421c3f1c77f7a3b7949',
    chain: 'base',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [],
    why:
      'Bridge out through Socket Gateway 0x3a23f943181408eac424116af7b7790c94cb97a5. The wallet sends 399365908 USDC (6 dec, 399.365908; log 46) to the gateway; ' +
      'the gateway has 0x (Exchange Proxy, TransformedERC20 log 58) swap it to USDbC through 0x flash wallet 0xdb6f1920a889355780af7570773609bd8cb1f498 ' +
      '(Balancer V2 Vault Swap log 49: 189698807 USDC -> 189826405 USDbC; Uniswap V3 pool 0x06959273 Swap log 55: 209667101 -> 209805707), receives 399632112 USDbC (log 57), ' +
      "and hands it to Hop's L2 AMM wrapper 0x7d269d3e (log 60), which swaps it to 399833325 hUSDC (logs 64-65) and burns it (log 66) for Hop's TransferSent (log 67, chain 0x64). " +
      "The wallet's only balance change on base is -399.365908 USDC; nothing is received, so there is no trade (decisions.md: a trade gives one asset and receives another).",
    ambiguous:
      "The USDC->USDbC leg is a swap paid by the wallet's USDC, and could be read as sell USDC / buy USDbC (0x). Rejected: the USDbC never reaches the wallet (it is bridged to chain 100 in the same transaction), so the wallet received nothing.",
  },
  {
    hash: '0xf93a7211656753e841899b40edf3a9ccfded6b40b6d7b3538a4215362f9bd34f',
    chain: 'base',
    wallet: '0x66cf237a0d3505e80ef083e0f8d4cad09fd0bfe4',
    trades: [
      {
        side: 'buy',
        token: 'cbETH',
        tokenMint: '0x2ae3f1ec7f1f5012cfeab0185bfc7aa3cf0dec22',
        amount: '0.048393744103758202',
        amountSol: '0.051094010416535325',
        dex: 'paraswap',
      },
    ],
    why:
      "Sent to 0x59c7c832e96d2568bea6db468c1aadcbbda08a52, ParaSwap Augustus V5's Base deployment (public address books list it as Augustus V5 on Base, e.g. Aave's Base book AUGUSTUS.V5; Base's V5 is not 0xdef171fe). " +
      'Tx value 51094010416535325 wei is wrapped by the router (WETH Deposit log 11) and sent to Maverick V1 pool 0x2cebcf66f023aa88003593804504a8df882d12e6 (log 13); ' +
      "the pool's Swap (log 14, Maverick V1 Swap(sender, recipient, tokenAIn, exactOutput, amountIn 51094010416535325, amountOut 48393744103758202, activeTick)) pays " +
      '48393744103758202 cbETH (0x2ae3f1ec..., 18 dec, symbol cbETH: Coinbase Wrapped Staked ETH on Base) to the router (log 12), which forwards it to the wallet (log 15); SwappedV3 log 16 agrees. ' +
      'amount = 48393744103758202 / 1e18; amountSol = WETH paid into the Maverick pool, 51094010416535325 / 1e18. dex: the aggregator called.',
    venues: [
      {
        address: '0x2cebcf66f023aa88003593804504a8df882d12e6',
        kind: 'other',
        token0: '0x2ae3f1ec7f1f5012cfeab0185bfc7aa3cf0dec22',
        token1: '0x4200000000000000000000000000000000000006',
        source:
          'Maverick V1 pool (factory not established here): emits the Maverick V1 Swap event (log 14; sender 0x32aed3bce901da12ca8489788f3a99fce1056e14); tokenAIn = false with WETH in and cbETH out, so tokenA = cbETH, tokenB = WETH',
      },
    ],
  },
  {
    hash: '0xcd776ba46aff70b3cc1284b954d6e0a10a4d69dc43891787d77c964c467329c8',
    chain: 'base',
    wallet: '0xa01f6d0985389a8e106d3158a9441ac21eac8d8c',
    trades: [
      {
        side: 'buy',
        token: 'TYBG',
        tokenMint: '0x0d97f261b1e88845184f678e2d1e7a98d9fd38de',
        amount: '2812320.686082273676574334',
        amountSol: '0.009832891503659921',
        dex: 'sushiswap',
      },
    ],
    why:
      "Sent to 0x83ec81ae54dd8dca17c3dd4703141599090751d1, SushiSwap's RouteProcessor3_2 on Base (Sushi's router list: Chains.BASE RouteProcessor3_2; its Route(from,to,tokenIn,tokenOut,amountIn,amountOutMin,amountOut) event is log 26). " +
      'Tx value 9832891503659921 wei is wrapped (WETH Deposit log 21) and sent to pair 0xf65bb528ced09008603509c3fda43e1ccfddf935 (log 22); V2 Swap log 25: amount1In 9832891503659921 (WETH), ' +
      'amount0Out 2812320686082273676574334 TYBG paid straight to the wallet (log 23). TYBG = Base God, 18 dec (public token lists). ' +
      'The pair is SushiSwap V2: CREATE2(factory 0x71524b4f93c58fcbf659783284e38825f0622859, keccak(TYBG ++ WETH), init code hash 0xe18a34eb0e04b04f7a0ac29a6e80748dca96319b42c54d679cb821dca90c6303) = 0xf65bb528... ' +
      'amountSol = WETH into the pair, 9832891503659921 / 1e18.',
    ambiguous:
      "RouteProcessor is Sushi's own aggregation router. decisions.md gives no aggregator slug for it, so the leg takes the venue of the pool (sushiswap); read as an aggregator it would still be Sushi's, so both readings give 'sushiswap'. Base's built-in table lacks the SushiSwap V2 factory (see report).",
    venues: [
      {
        address: '0xf65bb528ced09008603509c3fda43e1ccfddf935',
        kind: 'v2',
        factory: '0x71524b4f93c58fcbf659783284e38825f0622859',
        token0: '0x0d97f261b1e88845184f678e2d1e7a98d9fd38de',
        token1: '0x4200000000000000000000000000000000000006',
        source: 'CREATE2(SushiSwap V2 factory on Base, token0 ++ token1, init 0xe18a34eb...) matches',
      },
    ],
  },
  {
    hash: '0xb71a1339c700a110d61655387d422bb982252a3b55de7f571ced3b9f00d9beee',
    chain: 'base',
    wallet: '0x514c4ba193c698100ddc998f17f24bdf59c7b6fb',
    trades: [],
    why:
      'Liquidity add through Aerodrome Router 0xcf77a3ba9a5ca399b7c97c74d54e5b1beb874e43: the wallet sends 2595314266724358628 wstETH (log 14) and 2994500751550176380 WETH (log 15) to ' +
      'pool 0xa6385c73961dd9c58db2ef0c4eb98ce4b60651e8 (vAMM-WETH/wstETH), which mints 2787544746858080184 LP to the wallet (log 16, Mint log 18). Liquidity adds are not trades.',
    venues: [
      {
        address: '0xa6385c73961dd9c58db2ef0c4eb98ce4b60651e8',
        kind: 'solidly',
        factory: '0x420dd381b31aef6683db6b902084cb0ffece40da',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0xc1cba3fcea344f92d9239c08c0568f6f2f0ee452',
        source:
          'Aerodrome clone address: CREATE2(PoolFactory 0x420dd381..., keccak(token0 ++ token1 ++ stable=false), EIP-1167 clone of implementation 0xa4e46b4f701c62e14df11b48dce76a7d793cd6d7)',
      },
    ],
  },
  {
    hash: '0x847ed0b6bd3f1b030cc84eee74c2c238dd93e0b689c87d44bce7f3591173ef0d',
    chain: 'base',
    wallet: '0x61d90de4fa8cfbbd7a7650ae01a39fd1b1863503',
    trades: [],
    why:
      'Liquidity removal through Aerodrome Router 0xcf77a3ba: the wallet sends 53130643452706 vAMM-AERO/USDbC LP to pool 0x2223f9fe624f69da4d8256a7bcc9104fba7f8f75 (log 2), which burns it (log 3) ' +
      'and pays 190426331639958037231 AERO (log 4) and 15035115 USDbC (log 5) to the wallet (Burn log 7). Liquidity removals are not trades.',
    venues: [
      {
        address: '0x2223f9fe624f69da4d8256a7bcc9104fba7f8f75',
        kind: 'solidly',
        factory: '0x420dd381b31aef6683db6b902084cb0ffece40da',
        token0: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
        token1: '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca',
        source: 'Aerodrome clone CREATE2 (PoolFactory 0x420dd381..., stable=false, implementation 0xa4e46b4f...) matches',
      },
    ],
  },
  {
    hash: '0xf0cb2118b1c25cb5623e8f56b7105f2e426164f8f9390e747baed0d68fcf23f4',
    chain: 'base',
    wallet: '0x4d2a353dcd9b25a241382241c9b9a27b7cd08f20',
    trades: [],
    why:
      'Beefy vault deposit (vault 0xc005b9833debcf5fe6cc5bc9ba4fd74bb382ae55, mooAeroUSDC-AERO). The wallet sends 678153946349 LP of Aerodrome pool 0x6cdcb1c4 (USDC/AERO) to the vault (log 30), ' +
      'which passes it to its strategy 0xede4dd6758634007eb1f4cf8a203bf237a44ea4c and the gauge (logs 31-33), and mints 584391176883 vault shares to the wallet (log 35). ' +
      "The deposit triggered the strategy's harvest: it claims 104134773192413315943 AERO (log 2), sells 10198183201776284441 AERO for 1144038222375408 WETH on Aerodrome pool 0x7f670f78 (Solidly Swap log 9), " +
      'pays that WETH out as fees (logs 10-12, fee event log 13): 6021253801975 WETH to the wallet as the harvest call fee, and swaps AERO->USDC on pool 0x6cdcb1c4 (log 19) to add liquidity (Mint log 24). ' +
      "The swaps trade the strategy's own balance. The wallet: -LP, +vault shares (a deposit receipt), +0.000006021253801975 WETH (a keeper reward paid out of others' swaps): no trade.",
    ambiguous:
      'A flow reading of the wallet alone (gave LP, received shares and WETH) could invent a sell of the LP token for WETH. Rejected: the shares are a deposit receipt and the WETH is a harvest call fee paid by the strategy, not a swap of the wallet (decisions.md: swaps by others that pay out to the wallet are not trades).',
    venues: [
      {
        address: '0x7f670f78b17dec44d5ef68a48740b6f8849cc2e6',
        kind: 'solidly',
        factory: '0x420dd381b31aef6683db6b902084cb0ffece40da',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
        source: 'Aerodrome clone CREATE2 (stable=false) matches',
      },
      {
        address: '0x6cdcb1c4a4d1c3c6d054b27ac5b77e89eafb971d',
        kind: 'solidly',
        factory: '0x420dd381b31aef6683db6b902084cb0ffece40da',
        token0: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        token1: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
        source: 'Aerodrome clone CREATE2 (stable=false) matches',
      },
    ],
  },
  {
    hash: '0x4a5eb8fac7ef1d6637ff1d54e67791e4a5a49effb141f30e5af90f5aba5d48a5',
    chain: 'base',
    wallet: '0xf68d2bfcecd7895bba05a7451dd09a1749026454',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        amount: '692.560007',
        amountSol: null,
        dex: '0x',
      },
      {
        side: 'buy',
        token: 'AERO',
        tokenMint: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
        amount: '1726.46678822133419734',
        amountSol: null,
        dex: '0x',
      },
    ],
    why:
      '0x gasless meta-transaction: relayer 0x1b1aa8f5830db779e905872d75ea13e688c897ef calls the 0x Exchange Proxy 0xdef1c0ded9bec7f1a1670819833240f027b25eff (selector 0x3d8d4082, executeMetaTransactionV2); ' +
      'MetaTransactionExecuted (log 15) names the signer 0xf68d2bfc... (second data word) and the inner call transformERC20 (topic 0x415565b0). The signer is the order owner and the wallet; the relayer only pays gas. ' +
      "The signer's USDC leaves in two transfers: 4288419 to 0x38f5e5b4da37531a6e85161e337e0238bb27aa90 (log 0, the meta-transaction fee) and 688271588 to 0x flash wallet 0xdb6f1920 (log 1): " +
      'sell amount = 692560007 / 1e6 = 692.560007 (commission taken from the input is part of what left the wallet). Route: Uniswap V3 pool 0x06959273 (fee 100) USDC->USDbC 688163600 (logs 2-5), ' +
      'Aerodrome volatile pool 0x2223f9fe USDbC->AERO (Solidly Swap log 11) paying 1726466788221334197340 AERO (log 7), which the flash wallet sends to the signer (log 13); TransformedERC20 log 14 agrees (688271588 in, 1726466788221334197340 out). ' +
      'AERO: Aerodrome token, 18 dec (public token lists). Token-to-token with no native leg, and a settlement order between two tokens: amountSol null. dex: 0x (Exchange Proxy called).',
    ambiguous:
      'The 4.288419 USDC meta-transaction fee (log 0) could be treated like a network fee and left out, giving a sell of 688.271588 (the TransformedERC20 input). decisions.md counts commission taken from the input in what left the wallet, so 692.560007.',
    venues: [
      {
        address: '0x06959273e9a65433de71f5a452d529544e07ddd0',
        kind: 'v3',
        factory: '0x33128a8fc17869897dce68ed026d694621f6fdfd',
        token0: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        token1: '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca',
        fee: 100,
        source: 'CREATE2(Uniswap V3 factory on Base, abi.encode(token0, token1, 100), init 0xe34f199b...) matches',
      },
      {
        address: '0x2223f9fe624f69da4d8256a7bcc9104fba7f8f75',
        kind: 'solidly',
        factory: '0x420dd381b31aef6683db6b902084cb0ffece40da',
        token0: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
        token1: '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca',
        source: 'Aerodrome clone CREATE2 (stable=false) matches',
      },
    ],
  },
  {
    hash: '0x1dadb9930dfd8732fe2281435fabf3b32d0a1317b02c4484153e3c9c8e5aa5ce',
    chain: 'base',
    wallet: '0xa01f6d0985389a8e106d3158a9441ac21eac8d8c',
    trades: [
      {
        side: 'sell',
        token: 'TYBG',
        tokenMint: '0x0d97f261b1e88845184f678e2d1e7a98d9fd38de',
        amount: '2043495.674885273676574334',
        amountSol: '0.170323280824739264',
        dex: '0x',
      },
    ],
    why:
      "Sent to Rainbow's router 0x00000000009726632680fb29d3f7a9734e3010e2 (RainbowRouter, a wallet front end), which forwards to 0x: the Exchange Proxy 0xdef1c0de emits TransformedERC20 (log 37, taker = the Rainbow router). " +
      'The wallet sends 2043495674885273676574334 TYBG (log 16) to the Rainbow router, which passes it to 0x flash wallet 0xdb6f1920 (log 19). Split over three venues: SushiSwap V2 pair 0xf65bb528 takes 1532621756163955199930751 ' +
      'and pays 127771067893444232 WETH (logs 20-23); Aerodrome volatile pool 0x20000fbf takes 357611743104922926650509 and pays 29786566190881236 (logs 25-30); Uniswap V3 pool 0xe745a591 (fee 10000) takes 153262175616395549993074 ' +
      'and pays 12765646740413796 (logs 32-34). The flash wallet unwraps the 170323280824739264 WETH (Withdrawal log 36) and sends ETH to the Rainbow router, which pays 168875532937728981 wei to the wallet and keeps ' +
      "1447747887010283 (0.85%, Rainbow's fee) (internal rows). amount = 2043495674885273676574334 / 1e18; amountSol = WETH paid by the three venues, 170323280824739264 / 1e18 (Rainbow's fee excluded). " +
      'dex: a front end that forwards to an aggregator takes the aggregator slug (0x).',
    venues: [
      {
        address: '0xf65bb528ced09008603509c3fda43e1ccfddf935',
        kind: 'v2',
        factory: '0x71524b4f93c58fcbf659783284e38825f0622859',
        token0: '0x0d97f261b1e88845184f678e2d1e7a98d9fd38de',
        token1: '0x4200000000000000000000000000000000000006',
        source: 'CREATE2(SushiSwap V2 factory on Base, init 0xe18a34eb...) matches',
      },
      {
        address: '0x20000fbfedfd172821821c9c59284129b04ffb2e',
        kind: 'solidly',
        factory: '0x420dd381b31aef6683db6b902084cb0ffece40da',
        token0: '0x0d97f261b1e88845184f678e2d1e7a98d9fd38de',
        token1: '0x4200000000000000000000000000000000000006',
        source: 'Aerodrome clone CREATE2 (stable=false) matches',
      },
      {
        address: '0xe745a591970e0fa981204cf525e170a2b9e4fb93',
        kind: 'v3',
        factory: '0x33128a8fc17869897dce68ed026d694621f6fdfd',
        token0: '0x0d97f261b1e88845184f678e2d1e7a98d9fd38de',
        token1: '0x4200000000000000000000000000000000000006',
        fee: 10000,
        source: 'CREATE2(Uniswap V3 factory on Base, fee 10000, init 0xe34f199b...) matches',
      },
    ],
  },
  {
    hash: '0x8d54608c2f684d880ad40a16cf9b82525c51520798ae8875d543d3338327ddad',
    chain: 'base',
    wallet: '0x44f29ebe386c409376c66ad268f9ae595c8c3e76',
    trades: [],
    why: 'WETH withdraw(224486585113410) called on WETH itself (Withdrawal log 225, ETH back by internal call): unwrapping the native coin is not a trade.',
  },
  {
    hash: '0x0d418e4a858ca5faf00c36b685561ca0fdac52ebd10364bf2cb6d7b5969e84e5',
    chain: 'base',
    wallet: '0xf396e7dbb20489d47f2dabfda013163223b892a0',
    trades: [],
    why: 'WETH deposit() with 1.2 ETH (Deposit log 145): wrapping the native coin is not a trade.',
  },
  {
    hash: '0x6fee2438337aefe297a69d4361ff4d743865ef7fce6637e9e3e544af0c19184f',
    chain: 'base',
    wallet: '0x4113a3cb9004e193e9906131b632e280f5f9b61e',
    trades: [
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        amount: '59.996794',
        amountSol: '0.01702',
        dex: 'curve',
      },
    ],
    why:
      "Sent to Curve's Router NG v1.0 on Base 0xd6681e74eea20d196c15038c580f721ef2ab6320 (Curve's own router, not an aggregator: each leg takes its pool's venue). " +
      'Tx value 17020000000000000 wei goes by internal call into Curve pool 0x6e53131f68a034873b6bfa15502af094ef0c5854, whose TokenExchange (NG shape, log 173) reads sold_id 2, tokens_sold 17020000000000000, ' +
      'bought_id 0, tokens_bought 60434199816721679574 crvUSD (paid to the router, log 172); the router passes the crvUSD to Curve pool 0xf6c5f01c7f3148891ad0e19df78743d31e390d1f (log 174), ' +
      'whose TokenExchange (log 176) reads sold_id 3 60434199816721679574 -> bought_id 0 59996794 USDC, paid to the router (log 175) and on to the wallet (log 177). The router only passes crvUSD between two Curve pools. ' +
      'amount = 59996794 / 1e6; amountSol = ETH paid into the first Curve pool, 17020000000000000 / 1e18; dex: the pool that delivered USDC is Curve.',
    venues: [
      { address: '0x6e53131f68a034873b6bfa15502af094ef0c5854', kind: 'curve', source: 'emits TokenExchange (NG shape) log 173; takes native ETH, pays crvUSD' },
      { address: '0xf6c5f01c7f3148891ad0e19df78743d31e390d1f', kind: 'curve', source: 'emits TokenExchange log 176; takes crvUSD, pays USDC' },
    ],
  },
  {
    hash: '0x2029ab1ad9985a21c8a064be8384b531d55864f37f16a1716a00da8577891aab',
    chain: 'base',
    wallet: '0x19b43787fbc106d427be3ca3307d4fb0a73d83dc',
    trades: [
      {
        side: 'sell',
        token: 'AERO',
        tokenMint: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
        amount: '10.586121519928495085',
        amountSol: '0.003163240870272189',
        dex: 'odos',
      },
    ],
    why:
      "Sent to Odos's V2 router on Base 0x19ceead7105607cd444f5ad10dd51356436095a1 (built in). The wallet sends 10586121519928495085 AERO (log 51) to Odos executor 0xfb2139331532e3ee59777fbbcb14af674f3fd671; " +
      'BaseX (BaseSwap V3) pool 0x44006a92 swaps it to 10928315 USD+ (logs 52-54), PancakeSwap V3 pool 0x5b9feb72 (fee 100) swaps the USD+ to 3163240870272189 WETH (logs 55-57, amount0 -3163240870272189), ' +
      'which the executor unwraps (Withdrawal log 58) and sends through the router to the wallet (internal rows, 3163240870272189 wei). Odos Swap log 59 agrees. ' +
      'amount = 10586121519928495085 / 1e18; amountSol = WETH paid by the last venue, 3163240870272189 / 1e18.',
    venues: [
      {
        address: '0x44006a9288963b4551e93199a3b6d275a8bb086e',
        kind: 'v3',
        factory: '0x38015d05f4fec8afe15d7cc0386a126574e8077b',
        token0: '0x940181a94a35a4569e4529a3cdfb74e38fd98631',
        token1: '0xb79dd08ea68a908a97220c76d19a6aa9cbde4376',
        fee: 450,
        source:
          "CREATE2(BaseX / BaseSwap V3 factory 0x38015d05..., fee 450, init 0xe34f199b...) matches; Overnight's payout config names this pool BaseSwap USD+/AERO",
      },
      {
        address: '0x5b9feb72588d2800892a00d2abb4ca9071df846e',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0xb79dd08ea68a908a97220c76d19a6aa9cbde4376',
        fee: 100,
        source:
          'CREATE2(PancakeSwap V3 pool deployer 0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9, fee 100, init 0x6ce8eb47...) matches; factory() is the PancakeSwap V3 factory',
      },
    ],
  },
  {
    hash: '0xf1bfb66819293de78d82ccf1d076ef4987114d01716ddc1d846f4c806df200c0',
    chain: 'base',
    wallet: '0x706a70067be19bdadbea3600db0626859ff25d74',
    trades: [],
    why:
      'Vault deposit through bundler 0x23055618898e202386e6c13955a58d3c68200bfb: the wallet sends 51573591 USDC (log 496), the ERC-4626 vault 0xc1256ae5 (mwUSDC) mints 51333358693113784641 shares to the wallet ' +
      '(log 500, Deposit log 501) and supplies the USDC to Morpho (logs 502-503). Vault shares minted against a deposit are not a trade.',
  },
  {
    hash: '0xe45c138f3086f821c6598b24999c9cc0ca9ed95ecccc08b57f751d7146fd01ca',
    chain: 'base',
    wallet: '0x9fc0784d90bcac115129366acd2acb1efa575009',
    trades: [
      {
        side: 'buy',
        token: 'cbDXN',
        tokenMint: '0x9430a7e6283fb704fd1d9302868bc39d16fe82ba',
        amount: '1013.977585253488605008',
        amountSol: '0.00309225',
        dex: 'openocean',
      },
    ],
    why:
      "Sent to OpenOcean's exchange proxy 0x6352a56caadc4f1e25cd6c75970fa768a3304e64 (OpenOcean Exchange V2, same address on many chains). Tx value 3100000000000000 wei goes to executor 0xdec876911cbe9428265af0d12132c52ee8642a99 " +
      "(internal), which pays 7750000000000 wei to 0x39041f1b366fe33f9a5a79de5120f2aee2577ebc (Rabby's interface fee, internal row) and wraps 3092250000000000 (Deposit log 340) into Uniswap V3 pool 0x7fe91f69 (log 342; " +
      'Swap log 343: amount0 +3092250000000000 WETH, amount1 -1013977585253488605008 cbDXN); the pool pays the executor (log 341), which pays the wallet (log 344). OpenOcean Swapped log 345 agrees. ' +
      "amount = 1013977585253488605008 / 1e18; amountSol = WETH into the pool, 3092250000000000 / 1e18 (the front end's fee is separate).",
    venues: [
      {
        address: '0x7fe91f69adf6151a38e206a293f1935d8e562721',
        kind: 'v3',
        factory: '0x33128a8fc17869897dce68ed026d694621f6fdfd',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x9430a7e6283fb704fd1d9302868bc39d16fe82ba',
        fee: 10000,
        source: 'CREATE2(Uniswap V3 factory on Base, fee 10000) matches',
      },
    ],
  },
  {
    hash: '0xe8551212a0bb6f59a38883161ec11393f03ba6e8f2f71e8d3c41df0bfe0a71c6',
    chain: 'base',
    wallet: '0xf9c6fc43a385362c9c8364bf9c5236314607c0a5',
    trades: [
      {
        side: 'sell',
        token: 'VIRTUAL',
        tokenMint: '0x0b3e328455c4059eeb9e3f84b5543f74e24e7e1b',
        amount: '3.900132321874893322',
        amountSol: '0.003079443970618623',
        dex: 'magpie',
      },
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        amount: '7.574831',
        amountSol: '0.003079443970618623',
        dex: 'magpie',
      },
    ],
    why:
      "Sent to Magpie's router v3.0 on Base 0xef42f78d25f4c681dcad2597fa04877ff802ef4b (an aggregator; rotki's Magpie decoder lists it as the Base v3.0 router). " +
      "The router takes 9750330804687233 VIRTUAL from the wallet for Rabby's interface fee (log 118, to 0x39041f1b) and 3890381991070206089 for the route (log 120): sell amount = 3900132321874893322 / 1e18 " +
      "(commission from the input is part of what left the wallet; Magpie's Swap log 130 gives amountIn 3900132321874893322). VIRTUAL: Virtual Protocol, 18 dec (public token lists). " +
      'The VIRTUAL goes to V3-shaped pool 0x6e9d49ad (log 122; Swap log 123: amount0 +3890381991070206089, amount1 -3079443970618623), which pays 3079443970618623 WETH to the router (log 121); ' +
      'the router pays it via Permit2 into the Balancer V3 Vault 0xba1333333333a1ba1108e8412f11850a5c319ba9 (log 127; Vault Swap log 126, pool 0xcb80b1a9, WETH 3079443970618623 -> USDC 7574831), ' +
      'and the 7574831 USDC (log 128) reaches the wallet (log 129). The WETH middle leg is equal on both sides: amountSol 3079443970618623 / 1e18 for both trades.',
    ambiguous:
      "decisions.md names no slug for Magpie. It is an aggregator router (the transaction called it), so its own slug 'magpie' is used; without an aggregator entry the legs would take their venues (sell: the pool 0x6e9d49ad, whose factory was not established here, so unknown-v3-fork or its real venue; buy: balancer-v3).",
    venues: [
      {
        address: '0x6e9d49ad7e4e40c429c6b151ff72ee9f2747f873',
        kind: 'v3',
        token0: '0x0b3e328455c4059eeb9e3f84b5543f74e24e7e1b',
        token1: '0x4200000000000000000000000000000000000006',
        source:
          'Uniswap V3 Swap event (log 123), token order from the amounts; CREATE2 does not match Uniswap V3, PancakeSwap V3, SushiSwap V3, BaseX or Alien Base V3 (any common fee), nor Slipstream: factory not established',
      },
      { address: '0xba1333333333a1ba1108e8412f11850a5c319ba9', kind: 'balancer-v3', source: 'Balancer V3 Vault (same address on every chain), Swap log 126' },
    ],
  },
  {
    hash: '0xe0694a8b16649877e82f7039e6e61265552e62c83d274e3994f4f8855a4eb352',
    chain: 'base',
    wallet: '0x3a20ba3678c5c40f7cd48eb373ff8a501d170534',
    trades: [
      {
        side: 'buy',
        token: 'WELL',
        tokenMint: '0xa88594d404727625a9437c3f886c7643872296ae',
        amount: '3.603360047987326035',
        amountSol: '0.00005',
        dex: 'magpie',
      },
    ],
    why:
      "Sent to Magpie's router v3.0 on Base 0xef42f78d (as in 0xe8551212...). Tx value 50000000000000 wei is wrapped (Deposit log 281) and paid into Uniswap V2 pair 0x293dab98 (log 282); " +
      'V2 Swap log 285: amount0In 50000000000000 WETH, amount1Out 3603360047987326035 WELL, paid to the router (log 283) and on to the wallet (log 286). Magpie Swap log 287 agrees. ' +
      'WELL: Moonwell, 18 dec (public token lists). amount = 3603360047987326035 / 1e18; amountSol = WETH into the pair, 50000000000000 / 1e18.',
    ambiguous: "Slug 'magpie' for Magpie's aggregator router (not named in decisions.md); without it the leg's venue is uniswap-v2.",
    venues: [
      {
        address: '0x293dab9854ac5a7db180da988eb393df491352f0',
        kind: 'v2',
        factory: '0x8909dc15e40173ff4699343b6eb8132c65e18ec6',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0xa88594d404727625a9437c3f886c7643872296ae',
        source: 'CREATE2(Uniswap V2 factory on Base, init 0x96e8ac42...) matches',
      },
    ],
  },
  {
    hash: '0xdc1a92c8cbda2fe7917e633efd889d17fc62e88e0f584af65f577b5d2a8bcb3c',
    chain: 'base',
    wallet: '0xe37b28362f65060c18c16398cfd23275d8cae750',
    trades: [],
    why:
      'Aave V3 collateral swap through adapter 0x2e549104c516b8657a7d888494dfbabd7c70b464 (Aave Pool 0xa238dd80c259a72e81d7e4664a9801593f98d1c5). The wallet transfers 109666465527922 aBasWETH to the adapter (log 1641), ' +
      'which withdraws it from Aave (aToken Burn log 1647, 109666465527922 WETH out log 1648), swaps the WETH through ParaSwap Augustus V6.2 0x6a000f20 and its executor on pool 0x744d441e for 90888333840838 wstETH ' +
      '(logs 1653-1657), and supplies the wstETH on behalf of the wallet (Supply log 1666), which gets 90901062973315 aBaswstETH minted (log 1664; 90888333840838 deposited + 12729132477 accrued interest, Mint log 1665). ' +
      "The swap was the adapter's, and the wallet's changes are only receipt tokens burned against a withdrawal and minted against a deposit: no trade.",
    ambiguous:
      'Economically a collateral swap WETH -> wstETH the wallet asked for; it could be read as sell aBasWETH / buy aBaswstETH (paraswap). Rejected: decisions.md counts receipt tokens minted or burned against a deposit or withdrawal as no trade, and the swapped WETH and wstETH never touched the wallet.',
  },
  {
    hash: '0xc648a3e4b22fcbffd5375bd3515fc7a41f19cc6f1c3863f475f85a189bfcd8f2',
    chain: 'base',
    wallet: '0x3520f30bc0dfa7c2a3577b23ad689bad81d6709c',
    trades: [],
    why:
      'Liquidity removal through router 0x4a012af2b05616fb390ed32452641c3f04633bb5: the wallet sends 1121717184194 UNI-V2 LP to pair 0x3099a7c2 (log 783), which burns it (log 784) and pays 16920866385895595 WETH ' +
      'and 75240037 USDC to the wallet (logs 785-786, Burn log 788). Liquidity removals are not trades.',
  },
  {
    hash: '0xbffb6bd2994f90676be45db667203317f0f70afb4eaa3832271e02e8dffb8101',
    chain: 'base',
    wallet: '0x5aa57b34daadb76ea486157b3d4472c4df536c82',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        amount: '6.53544',
        amountSol: '0.001549083846430882',
        dex: 'balancer-v3',
      },
    ],
    why:
      "Sent to Balancer V3's BatchRouter on Base 0x85a80afee867adf27b50bdb7b76da70f1e853062 (Balancer's own router, not an aggregator). Two parallel paths, all inside the Balancer V3 Vault 0xba133333...: " +
      '(1) the wallet pays 1633860 USDC to the Vault (log 352), the waBasUSDC ERC-4626 buffer wraps it to 1484000 waBasUSDC (log 353), pool 0x232ff9e2 swaps it to 386802890256316 WETH (Vault Swap log 354); ' +
      '(2) the wallet pays 4901580 USDC (log 360), pool 0xa42c17f9 swaps USDC->USDT 4901648 (log 355), pool 0x0fd814c2 USDT->cbBTC 4311 (log 356), pool 0x19aeb816 cbBTC->WETH 1162280956174566 (log 359). ' +
      'The Vault pays 1549083846430882 WETH (= 386802890256316 + 1162280956174566) to the router (log 361), which unwraps it (log 362) and sends ETH to the wallet (internal row). ' +
      'Sell USDC = (1633860 + 4901580) / 1e6 = 6.53544 (parallel paths summed); amountSol = WETH paid by the Vault, 1549083846430882 / 1e18.',
    venues: [
      {
        address: '0xba1333333333a1ba1108e8412f11850a5c319ba9',
        kind: 'balancer-v3',
        source: 'Balancer V3 Vault (same address on every chain), Swap logs 354-359',
      },
    ],
  },
  {
    hash: '0x72e4c09bd07884df800dea65063b5a2cff22ec697f5644bb17dea14db5cb99e1',
    chain: 'base',
    wallet: '0x77bdf564a1f9ce5a5785a36fc77cc4ffbecd3a19',
    trades: [
      {
        side: 'sell',
        token: 'superOETHb',
        tokenMint: '0xdbfefd2e8460a6ee4955a68582f85708baea60a3',
        amount: '0.000045',
        amountSol: '0.000044989534642181',
        dex: 'curve',
      },
    ],
    why:
      "Sent to Curve's Router NG v1.1 on Base 0x4f37a9d177470499a2dd084621020b023fcffc1f (curve-router-ng deployment). The wallet sends 45000000000000 superOETHb (Origin Super OETH, 18 dec, public token lists; log 236) " +
      'to the router, which passes it to Curve pool 0x302a94e3c28c290eaf2a4605fc52e11eb915f378 (log 237); TokenExchange log 239: sold_id 1 45000000000000, bought_id 0 44989534642181 WETH, paid to the router (log 238) ' +
      'and on to the wallet (log 240). The wallet receives wrapped native: a sell. amount = 45000000000000 / 1e18; amountSol = WETH paid by the pool, 44989534642181 / 1e18.',
    venues: [
      {
        address: '0x302a94e3c28c290eaf2a4605fc52e11eb915f378',
        kind: 'curve',
        source: 'emits TokenExchange log 239 (coins 0 = WETH, 1 = superOETHb by the transfers)',
      },
    ],
  },
  {
    hash: '0x16b0e096358a955edc51479fc3b32056c2fe5afc4d33ae9b31c36326e4e2426b',
    chain: 'base',
    wallet: '0x9ba704115f0ed3a431a025ffa0525fdd1d507c3c',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        amount: '0.01',
        amountSol: null,
        dex: 'unknown',
      },
      {
        side: 'buy',
        token: 'stratUSD',
        tokenMint: '0xe5f2fe713cdb192c85e67a912ff8891b4e636614',
        amount: '0.009988',
        amountSol: null,
        dex: 'unknown',
      },
    ],
    why:
      "Sent to QuickSwap's Algebra Integral SwapRouter on Base 0xe6c9bb24ddb4ae5c6632dbe0de14e3e474c6cb04 (QuickSwap's Base deployment: factory 0xc5396866754799b9720125b104ae01d935ab9c7b, pool deployer " +
      '0xe08026fd8537d67c501199610c42d08bb34eaa75). Pool 0xb780bd13876dd8219d06ad88f88d6c72c35b902f = CREATE2(pool deployer, keccak(abi.encode(USDC, stratUSD)), Algebra Integral pool init code hash ' +
      "0xa18736c3ee97fe3c96c9428c0cc2a9116facec18e84f95f9da30543f8238a782). Its Swap (log 203) is Algebra Integral's Swap(sender, recipient, amount0, amount1, price, liquidity, tick, overrideFee, pluginFee): " +
      'amount0 +10000 USDC, amount1 -9988 stratUSD. The wallet pays 10000 USDC to the pool (log 202) and receives 9988 stratUSD (log 201). Token-to-token, no native leg: amountSol null. ' +
      "The event is neither the V2 nor the V3 Swap shape and QuickSwap is not a venue of base's table: unknown.",
    ambiguous:
      "A decoder that reads Algebra Integral's Swap as V3-shaped would say unknown-v3-fork, and a table naming QuickSwap would give its slug. decisions.md: V2/V3 shapes get *-fork, anything else unknown.",
    venues: [
      {
        address: '0xb780bd13876dd8219d06ad88f88d6c72c35b902f',
        kind: 'other',
        factory: '0xc5396866754799b9720125b104ae01d935ab9c7b',
        token0: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
        token1: '0xe5f2fe713cdb192c85e67a912ff8891b4e636614',
        source:
          'Algebra Integral pool: CREATE2(QuickSwap pool deployer 0xe08026fd..., abi.encode(token0, token1), 0xa18736c3...) matches; factory from QuickSwap Base deployment config',
      },
    ],
  },
  // ---------------------------------------------------------------- bsc
  {
    hash: '0xd8a005930d1926b47bee9b440ff62f5af3ab36b77234247146ee3188af901462',
    chain: 'bsc',
    wallet: '0xc5e943d372da091a7ff9632ea13d7e8d3a6a1494',
    trades: [
      {
        side: 'buy',
        token: 'VEP',
        tokenMint: '0x1e32b79d8203ac691499fbfbb02c07a9c9850dd7',
        amount: '362.301589519456297536',
        amountSol: '0.005',
        dex: 'odos',
      },
    ],
    why:
      "Sent to Odos's V1 router on BSC 0x9f138be5aa5cc442ea7cc7d18cd9e30593ed90b9 (Odos's bsc approval address in public adapters; not in the built-in table). Tx value 5000000000000000 wei passes by internal calls " +
      'router -> 0x823ab778 -> 0x0acffb0f -> Hashflow pool 0x34a143ed5ef7559b4db017d70df3128f782d0816, whose Hashflow Trade event (log 155: Trade(trader 0xcb369dbd, txid, baseToken 0x0 = BNB, quoteToken USDT, 5000000000000000, 1124674230208032360)) ' +
      "pays 1124674230208032360 USDT to Veplus pair 0xcb369dbd (log 156); the pair's V2 Swap (log 161: amount1In 1124674230208032360, amount0Out 362301589519456297536) pays VEP to the router (log 157), which forwards it to the wallet (log 162). " +
      "The pair's 3374022690624097 USDT to 0x19e39d31 (log 158, Fees log 159) is the pair's own fee. amount = 362301589519456297536 / 1e18; amountSol = BNB taken by the first venue (the Hashflow market maker), 5000000000000000 / 1e18.",
    venues: [
      {
        address: '0x34a143ed5ef7559b4db017d70df3128f782d0816',
        kind: 'other',
        source: 'Hashflow pool: emits Trade(address,bytes32,address,address,uint256,uint256) (topic 0x8cf3dec1); takes BNB (internal row), pays USDT (log 156)',
      },
      {
        address: '0xcb369dbd43de4a5f1d4341cf6621076a6ce668cd',
        kind: 'v2',
        factory: '0x5bcd9ee6c31def33334b255ee7a767b6eedcba4b',
        token0: '0x1e32b79d8203ac691499fbfbb02c07a9c9850dd7',
        token1: '0x55d398326f99059ff775485246999027b3197955',
        source:
          "Veplus (Solidly fork with Uniswap V2's Swap event): DefiLlama's veplus adapter names this VEP/USDT pair and pair factory 0x5bcd9ee6...; not checked by CREATE2",
      },
    ],
  },
  {
    hash: '0x38196d5c4c890ba5fbc897868da0fba917394f64daedb95c494fbf2c4da1145a',
    chain: 'bsc',
    wallet: '0x887e8b6119b38c60cb03cab204c0a704c6e0a473',
    trades: [
      {
        side: 'sell',
        token: 'FRAX',
        tokenMint: '0x90c97f71e18723b0cf0dfa30ee176ab653e89f40',
        amount: '2.643598626182094592',
        amountSol: '0.006968691619741031',
        dex: 'firebird',
      },
    ],
    why:
      "Sent to Firebird's aggregation router on BSC 0x92e4f29be975c1b1eb72e77de24dccf11432a5bd (Firebird's router table: chain 56). The wallet sends 2643598626182094592 FRAX (FRAX, 18 dec) to Firebird executor 0x0852dba4 (log 262); " +
      'ApeSwap pair 0x52926007 swaps it to 2637075116392460971 BUSD (logs 264-267), WaultSwap pair 0x4bbed8d9 swaps that to 6968691619741031 WBNB (logs 269-272). The executor keeps 3484345809870 WBNB as a fee ' +
      "(log 275 to 0xf6879537, fee event log 276), unwraps 6965207273931161 (Withdrawal log 277) and pays it to the wallet (internal row); Firebird's Swapped log 278 agrees. " +
      "amount = 2643598626182094592 / 1e18; amountSol = WBNB paid by the last venue, 6968691619741031 / 1e18 (Firebird's fee excluded).",
    ambiguous:
      "decisions.md names no slug for Firebird; it is an aggregator router (the transaction called it), so 'firebird'. Without it the leg's venue would be the WaultSwap pair (unknown-v2-fork: WaultSwap is not built in).",
    venues: [
      {
        address: '0x5292600758a090490d34367d4864ed6291d254fe',
        kind: 'v2',
        factory: '0x0841bd0b734e4f5853f0dd8d7ea041c241fb0da6',
        token0: '0x90c97f71e18723b0cf0dfa30ee176ab653e89f40',
        token1: '0xe9e7cea3dedca5984780bafc599bd69add087d56',
        source: 'CREATE2(ApeSwap factory on BSC, init 0xf4ccce37...) matches',
      },
      {
        address: '0x4bbed8d9a1b27a4ddd84a3368a850e78c9580404',
        kind: 'v2',
        factory: '0xb42e3fe71b7e0673335b3331b3e1053bd9822570',
        token0: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        token1: '0xe9e7cea3dedca5984780bafc599bd69add087d56',
        source: 'CREATE2(WaultSwap factory on BSC, init 0x9599db1e...) matches',
      },
    ],
  },
  {
    hash: '0x79bda33cfae80c8d7b26def223f409e54cfddc33ec7e009523fb5bc708e85042',
    chain: 'bsc',
    wallet: '0x1b414e1977eaa94fa57c3e669683769ad19e88d5',
    trades: [
      {
        side: 'sell',
        token: 'USDT',
        tokenMint: '0x55d398326f99059ff775485246999027b3197955',
        amount: '50.400357174206099256',
        amountSol: null,
        dex: 'curve',
      },
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
        amount: '50.337143372227800304',
        amountSol: null,
        dex: 'curve',
      },
    ],
    why:
      "Sent to Curve's Router NG on BSC 0xa72c85c258a81761433b4e8da60505fe3dd551cc (curve-router-ng deployment). The wallet sends 50400357174206099256 USDT (log 75) to the router, which passes it to Curve pool " +
      '0xa5e0e46462970c9ee8c2ecadcde254c483748ec4 (log 77); TokenExchange log 80: sold_id 0 50400357174206099256, bought_id 1 50337143372227800305 USDC (BSC USDC, 18 dec), paid to the router (log 79); ' +
      'the router pays 50337143372227800304 to the wallet (log 81, one wei less). Token-to-token with no native leg: amountSol null; both legs on the Curve pool.',
    venues: [
      {
        address: '0xa5e0e46462970c9ee8c2ecadcde254c483748ec4',
        kind: 'curve',
        source: 'emits TokenExchange log 80 (coin 0 USDT, coin 1 USDC by the transfers)',
      },
    ],
  },
  {
    hash: '0x3cfb94c6c4a3ba05759cab565148fe5a0c1894479603c29c6c2201dbed943365',
    chain: 'bsc',
    wallet: '0xef575087f1e7bec54046f98119c8c392a37c51dd',
    trades: [
      {
        side: 'sell',
        token: 'ETH',
        tokenMint: '0x2170ed0880ac9a755fd29b2688956bd959f933f8',
        amount: '0.671147484158020414',
        amountSol: '3.3',
        dex: 'uniswap-v3',
      },
    ],
    why:
      "Sent to Uniswap's Universal Router V1 on BSC 0x5dc88340e1c5c6366864ee415d6034cadd1a9897 (Uniswap's bsc deployment UniversalRouterV1; a protocol router, not an aggregator). " +
      'The wallet pays 671147484158020414 Binance-Peg ETH (symbol ETH, 18 dec) via Permit2 to pool 0x0f338ec1 (log 361); Swap log 363: amount0 +671147484158020414, amount1 -3300000000000000000 WBNB, paid to the router (log 360), ' +
      'unwrapped (Withdrawal log 364) and sent to the wallet (internal row). Pool 0x0f338ec1 = CREATE2(Uniswap V3 factory on BSC 0xdb1d1001..., abi.encode(ETH, WBNB, 500), init 0xe34f199b...). ' +
      'amount = 671147484158020414 / 1e18; amountSol = WBNB paid by the pool, 3.3.',
    venues: [
      {
        address: '0x0f338ec12d3f7c3d77a4b9fcc1f95f3fb6ad0ea6',
        kind: 'v3',
        factory: '0xdb1d10011ad0ff90774d0c6bb92e5c5c8b4461f7',
        token0: '0x2170ed0880ac9a755fd29b2688956bd959f933f8',
        token1: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        fee: 500,
        source: 'CREATE2(Uniswap V3 factory on BSC, fee 500) matches',
      },
    ],
  },
  {
    hash: '0x07b14d73cf0b4ca453883178c6521a6c6fd21cd7ee2bf7650badc8be61d9c76e',
    chain: 'bsc',
    wallet: '0x706a70067be19bdadbea3600db0626859ff25d74',
    trades: [],
    why:
      "Aave V3 deposit of native BNB through the WrappedTokenGateway 0xe63eaf6d: 0.005 BNB wrapped (Deposit log 16), supplied to Aave's Pool 0x6807dc92 (Supply log 22), 5000000000000000 aToken 0x9b00a094 minted to the wallet " +
      '(log 19, Mint log 20). A receipt token minted against a deposit is not a trade.',
  },
  {
    hash: '0xdbad52c68bd2d736ad38560cab087785086c3e86ab4b685251cba9898639a592',
    chain: 'bsc',
    wallet: '0x92dd70347f1f7f9feb3385131e0c875d96c5269e',
    trades: [
      {
        side: 'sell',
        token: 'AVAX',
        tokenMint: '0x1ce0c2827e2ef14d5c4f29a091d735a204794041',
        amount: '25',
        amountSol: '1.311271860284690188',
        dex: 'paraswap',
      },
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
        amount: '889.76029200245771966',
        amountSol: '1.311271860284690188',
        dex: 'paraswap',
      },
    ],
    why:
      'Sent to ParaSwap Augustus V5 0xdef171fe48cf0115b1d80b88dc8eab59176fee57 (built in). The wallet pays 25000000000000000000 AVAX (log 271). Split: 1500100000000000000 to ApeSwap pair 0x40afc7cb for 78722822269507005 WBNB ' +
      '(logs 273-276), 5499900000000000000 to PancakeSwap V2 pair 0x151268db for 288488393420878480 (logs 278-281), 18000000000000000000 to PancakeSwap V3 pool 0x1d8b1ed9 (fee 2500) for 944060644594304703 (logs 283-286). ' +
      'Augustus unwraps each (logs 277, 282, 287) and re-wraps the sum 1311271860284690188 (Deposit log 288), paid into PancakeSwap V3 pool 0xf2688fb5 (fee 100, log 290), which pays 898294085817726117778 USDC (log 289, Swap log 291). ' +
      'Augustus sends 8533793815268398118 USDC as a fee to 0x2df17455 (log 292) and 889760292002457719660 to the wallet (log 293); SwappedV3 log 294 (receivedAmount 898294085817726117778). ' +
      'Sell amount = 25; buy amount = 889760292002457719660 / 1e18 (net of the fee taken from the output). WBNB middle leg: paid out by the AVAX venues = paid into the USDC venue = 1311271860284690188, amountSol of both.',
    venues: [
      {
        address: '0x40afc7cbd0dc2be5860f0035b717d20afb4827b2',
        kind: 'v2',
        factory: '0x0841bd0b734e4f5853f0dd8d7ea041c241fb0da6',
        token0: '0x1ce0c2827e2ef14d5c4f29a091d735a204794041',
        token1: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        source: 'CREATE2(ApeSwap factory on BSC) matches',
      },
      {
        address: '0x151268db1579ebc5306d4aaa5dcc627646e6986f',
        kind: 'v2',
        factory: '0xca143ce32fe78f1f7019d7d551a6402fc5350c73',
        token0: '0x1ce0c2827e2ef14d5c4f29a091d735a204794041',
        token1: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        source: 'CREATE2(PancakeSwap V2 factory, init 0x00fb7f63...) matches',
      },
      {
        address: '0x1d8b1ed9b3da5d510fd3723e0dd02476e0d7e781',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x1ce0c2827e2ef14d5c4f29a091d735a204794041',
        token1: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        fee: 2500,
        source: 'CREATE2(PancakeSwap V3 pool deployer 0x41ff9aa7..., fee 2500, init 0x6ce8eb47...) matches',
      },
      {
        address: '0xf2688fb5b81049dfb7703ada5e770543770612c4',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
        token1: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        fee: 100,
        source: 'CREATE2(PancakeSwap V3 pool deployer, fee 100) matches',
      },
    ],
  },
  {
    hash: '0xa08ff8cf928f0d1c5731b8320bf9055c2adf11dc9e8343ce6e5ff6c570330e14',
    chain: 'bsc',
    wallet: '0x113a6424cf48c467edf367973b8dfb4a18a0623a',
    trades: [
      {
        side: 'sell',
        token: 'USDT',
        tokenMint: '0x55d398326f99059ff775485246999027b3197955',
        amount: '10',
        amountSol: '0.014389342482790536',
        dex: 'airswap',
      },
    ],
    why:
      "Sent to MetaMask Swaps' router on BSC 0x1a1ec25dc08e98e5e93f1104b5e5cdd298707d31 (MetaSwap). Its adapter 0xc590175e458b83680867afd273527ff58f74c02b takes 10000000000000000000 USDT from the wallet (log 68) and fills an " +
      'AirSwap order on SwapERC20 v4 0xd82fa167727a4dc6d6f55830a2c47abbb4b3a0f8: SwapERC20 log 74 (nonce, signer 0x111bb8c3542f2b92fb41b8d913c01d3788431111, signerToken WBNB, signerAmount 14389342482790536, protocolFee 5, ' +
      'sender = the adapter, senderToken USDT, senderAmount 10e18). The market maker receives the USDT (log 70) and pays 14389342482790536 WBNB to the adapter (log 72); its 7194671241395 WBNB protocol fee (log 73) goes straight ' +
      'to AirSwap, outside the route. The adapter unwraps (Withdrawal logs 75, 77): 125906746724417 wei to the MetaMask fee collector 0xb28da7bc (log 76, internal row) and 14263435736066119 wei to the wallet (internal row). ' +
      "amount = 10; amountSol = WBNB the market maker gave the route, 14389342482790536 / 1e18 (MetaMask's fee excluded). " +
      'dex: MetaMask forwarded to a market maker, not to an aggregator, and AirSwap is not named in the slug table: unknown.' +
      " Corrected by the route engine's helper (ROUTES.md R10): a market maker filling an order takes the slug of the contract that emitted the fill event where the chain's table names it; AirSwap's SwapERC20 is in the table (registry.ts named contracts) -> airswap (was unknown).",
    ambiguous:
      "A table naming AirSwap would give its slug (e.g. 'airswap'); treating MetaMask Swaps itself as an aggregator would give a MetaMask slug. decisions.md makes MetaMask a front end and unnamed market makers unknown.",
    venues: [
      {
        address: '0xd82fa167727a4dc6d6f55830a2c47abbb4b3a0f8',
        kind: 'other',
        source: "AirSwap SwapERC20 v4 (same address on eth/bsc/polygon/avalanche per AirSwap's deployments), emits SwapERC20 (topic 0xb651f278)",
      },
    ],
  },
  {
    hash: '0x21d24bd239db461b7fe53aef5b82d0d3b7c3a62241a3a3fd3a2ba9434bf4a53d',
    chain: 'bsc',
    wallet: '0x4d29a5fdb0787690bd1c68e0107753c3ad1cf67b',
    trades: [
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
        amount: '2.07239458068046454',
        amountSol: '0.003',
        dex: 'odos',
      },
    ],
    why:
      "Sent to Odos's V2 router on BSC 0x89b8aa89fdd0507a99d334cbe3c808fafc7d850e (built in). Tx value 3000000000000000 wei goes to executor 0x9b57dca9 (internal), wrapped (Deposit log 130) and paid into Uniswap V3 pool 0x5289a8db " +
      '(log 132; Swap log 133: amount0 -2078630472096754805 USDC, amount1 +3000000000000000 WBNB); the pool pays 2078630472096754805 USDC to the router (log 131), which sends 4988713133032211 to 0x39041f1b ' +
      "(Rabby's interface fee, log 134) and 2072394580680464540 to the wallet (log 135). Odos Swap log 136 (amountOut 2072394580680464540). amount = 2072394580680464540 / 1e18 (net of the fee taken from the output); " +
      'amountSol = WBNB into the pool, 0.003.',
    venues: [
      {
        address: '0x5289a8dbf7029ee0b0498a84777ed3941d9acfec',
        kind: 'v3',
        factory: '0xdb1d10011ad0ff90774d0c6bb92e5c5c8b4461f7',
        token0: '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d',
        token1: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        fee: 500,
        source: 'CREATE2(Uniswap V3 factory on BSC, fee 500) matches',
      },
    ],
  },
  {
    hash: '0x68b7935786f6281c2774c6e4f7c0146cd9e4a0e40f0a2f49368e92fc5d2844c5',
    chain: 'bsc',
    wallet: '0xe733d0155f460dc8574855293fbd4e6b44699374',
    trades: [
      {
        side: 'buy',
        token: 'camel',
        tokenMint: '0x8051a61319b7ff7010a200e39b30b9a084dbcb5f',
        amount: '15021.487938841009576268',
        amountSol: '0.0579036',
        dex: '1inch',
      },
    ],
    why:
      "Sent to Rainbow's router 0x00000000009726632680fb29d3f7a9734e3010e2 (a wallet front end) with 58400000000000000 wei; it forwards 57903600000000000 to 1inch AggregationRouterV6 0x111111125421ca6dc452d289314280a0f8842a65 " +
      "(internal rows) and keeps 496400000000000 (0.85%, Rainbow's fee). 1inch sends it to 0xde9e4fe3 (internal), which wraps it (Deposit log 469) and pays 57903600000000000 WBNB into PancakeSwap V3 pool 0xe6996863 (log 471; " +
      'Swap log 472: amount0 -15021487938841009576268 camel, amount1 +57903600000000000); the pool pays the camel to the 1inch router (log 470), which sends it to the Rainbow router (log 473) and on to the wallet (log 474). ' +
      "amount = 15021487938841009576268 / 1e18; amountSol = WBNB into the pool, 57903600000000000 / 1e18 (Rainbow's fee excluded). dex: the front end forwarded to 1inch.",
    venues: [
      {
        address: '0xe69968639db8b3029a1afb28eefe44e42159af2b',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x8051a61319b7ff7010a200e39b30b9a084dbcb5f',
        token1: '0xbb4cdb9cbd36b01bd1cbaebf2de08d9173bc095c',
        fee: 10000,
        source: 'CREATE2(PancakeSwap V3 pool deployer, fee 10000) matches',
      },
    ],
  },
  // ---------------------------------------------------------------- monad
  {
    hash: '0xbec79c9b2b34a4374435313ca8f09ade4054af7b8111f42dbdc69a50890cc8ee',
    chain: 'monad',
    wallet: '0xb5c0e65fb2a31cb935f5234a9982050ac1693e55',
    trades: [],
    why: 'WMON deposit() with 0.01 MON (Deposit log 0): wrapping the native coin is not a trade.',
  },
  {
    hash: '0x2f2eb8f692117ee026b0e0eec7bbd26d90f6bdbba2216deac70b829ce9eff636',
    chain: 'monad',
    wallet: '0x9d24d495f7380ba80dc114d8c2cf1a54a68e25a4',
    trades: [],
    why: 'WMON withdraw(9954870000000000) (Withdrawal log 0, MON back by internal call): unwrapping the native coin is not a trade.',
  },
];

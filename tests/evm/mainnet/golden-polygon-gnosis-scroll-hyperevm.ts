import type { MainnetGolden } from './types.js';

/**
 * Expected trades for the polygon, gnosis, scroll and hyperevm transactions of the real mainnet set, in MANIFEST order,
 * derived by hand from each receipt's logs (and the explorer's internal rows) under decisions.md. Log numbers are the
 * receipt's logIndex in decimal. Token symbols and decimals come from tokens.json where it has them; otherwise from the
 * token's public listing (polygon: WETH, WBTC, DAI, LINK, BAL, SAND, USDC 0x3c49, USDC 0x2791 whose on-chain symbol() is
 * "USDC" although explorers show USDC.e; gnosis: EURe, GNO, sDAI, wstETH, WETH, COW, USDC 0xddaf, USDC.e 0x2a22; scroll:
 * USDC, wstETH; hyperevm: kHYPE, USD₮0). None of these chains is built in: they need EVM_CHAINS_FILE entries (polygon
 * native POL, wrapped WPOL; gnosis xDAI / WXDAI; scroll ETH / WETH 0x5300..04; hyperevm HYPE / WHYPE 0x5555..55).
 * Slugs not in decisions.md's list, used here as the chain entries propose them: quickswap-v2, quickswap-v3, prjx,
 * magpie, lifi, enso.
 */
export const GOLDEN: MainnetGolden[] = [
  {
    hash: '0x30e6eca4848fdb1ac7ca848ef8733dde120a3ea5eda3708ea0bfb57a5eb0636a',
    chain: 'polygon',
    wallet: '0x52c9bdc011df28f500027258920caea518df2733',
    trades: [
      {
        side: 'sell',
        token: 'WETH',
        tokenMint: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        amount: '0.01',
        amountSol: '14.091323574413688751',
        dex: 'quickswap-v2',
      },
    ],
    why:
      "swapExactTokensForETH on QuickSwap's UniswapV2Router02 0xa5e0829caced8ffdd4de3c43696c57f7d7a678ff (a protocol router, not an aggregator). Path WETH -> QUICK -> WPOL. " +
      'The wallet pays 10000000000000000 WETH (18 dec, 0.01; log 165) straight into pair 0x1bd06b96 (V2 Swap log 169: amount0In 10000000000000000, amount1Out 33708923900071578 QUICK to the next pair); pair 0x019ba032 (V2 Swap log 172) pays 14091323574413688751 WPOL to the router (log 170), which unwraps it (Withdrawal log 174) and sends 14.091323574413688751 POL to the wallet (LogTransfer log 175, internal row). ' +
      'QUICK between the two pairs is a pass-through leg of the route. amount = 0.01 WETH; amountSol = WPOL paid by the last pair, 14091323574413688751 / 1e18. ' +
      'WETH is not the native coin on Polygon (POL is), so this is a plain sell for POL. dex = venue that took the WETH: pair 0x1bd06b96, a QuickSwap V2 pair by CREATE2.',
    venues: [
      {
        address: '0x1bd06b96dd42ada85fdd0795f3b4a79db914add5',
        kind: 'v2',
        factory: '0x5757371414417b8c6caad45baef941abc7d3ab32',
        token0: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        token1: '0x831753dd7087cac61ab5644b308642cc1c33dc13',
        source:
          'CREATE2(QuickSwap V2 factory 0x5757371414417b8c6caad45baef941abc7d3ab32, keccak(token0 ++ token1), init code hash 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f) equals the pool address',
      },
      {
        address: '0x019ba0325f1988213d448b3472fa1cf8d07618d7',
        kind: 'v2',
        factory: '0x5757371414417b8c6caad45baef941abc7d3ab32',
        token0: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
        token1: '0x831753dd7087cac61ab5644b308642cc1c33dc13',
        source:
          'CREATE2(QuickSwap V2 factory 0x5757371414417b8c6caad45baef941abc7d3ab32, keccak(token0 ++ token1), init code hash 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f) equals the pool address',
      },
    ],
  },
  {
    hash: '0x3802c36346914887b09d65d6ace796ba2549a8947aed9087475b78cef3b089e8',
    chain: 'polygon',
    wallet: '0x0638df8ce244060e2ce2eec04484334a99608fa6',
    trades: [
      {
        side: 'buy',
        token: 'ACY',
        tokenMint: '0x8b1f836491903743fe51acd13f2cc8ab95b270f6',
        amount: '420.01909972952905',
        amountSol: '5',
        dex: 'odos',
      },
    ],
    why:
      'Sent with 5 POL (tx value, LogTransfer log 296) to 0xa32ee1c40594249eb3183c10792bcf573d4da47c, the Odos V1 router on Polygon (Odos router lists; DefiLlama/rotki label it Odos). ' +
      'Its executor 0x8fd175fd wraps the 5 POL (WPOL Deposit log 299) and splits it: 2049312053713947534 WPOL into V2 pair 0x7887a048 (logs 300/303) and 2950687946286052466 into V2 pair 0x78507ba1 (logs 304/307), both for WETH; WETH -> USDT through 0x4111ddbe (logs 311-312) and Uniswap V3 pool 0xbb98b3d2 (Swap log 323); USDT -> ACY in V2 pair 0x1ecd1a5c (Swap log 326: amount1In 3515566 USDT, amount0Out 486173011776544029328 ACY to the router, log 324). ' +
      'The router forwards 420019099729529050000 ACY (tokens.json: 18 dec) to the wallet (log 327) and keeps 66153912047014979328 (Odos V1 keeps the surplus over its quote: a fee, not part of amount). ' +
      "amount = 420019099729529050000 / 1e18; amountSol = WPOL paid into the route's venues, 2049312053713947534 + 2950687946286052466 = 5000000000000000000 wei = 5 POL. " +
      'dex: the aggregator called (odos).',
    venues: [
      {
        address: '0xbb98b3d2b18aef63a3178023a920971cf5f29be4',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        token1: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
        fee: 500,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0x9862e755e27b5e88f8b782c8264b0a8f55934084dd57d97753be8d540ee8ec67',
    chain: 'polygon',
    wallet: '0xb12897740478eec7b86b9ebf14245cdacbba4f2f',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174',
        amount: '18.970181',
        amountSol: '22.278327092660803452',
        dex: 'openocean',
      },
    ],
    why:
      "Sent to MetaMask Swaps' router on Polygon 0x1a1ec25dc08e98e5e93f1104b5e5cdd298707d31 (a wallet front end). " +
      'Its adapter 0xc590175e takes 18970181 bridged USDC (0x2791..., 6 dec, 18.970181; log 241), keeps 165989 as the MetaMask fee (log 252 to 0x930deddd) and routes 18804192 through OpenOcean (OpenOceanExchange V2 0x6352a56c emits Swapped log 251; its executor 0x6d8e9bd8 receives the USDC, log 243). ' +
      'Uniswap V3 pool 0xa3740945 (Swap log 247) takes 18804192 USDC (log 246) and pays 22278327092660803452 WPOL (log 245); the executor unwraps it (Withdrawal log 249) and the POL goes executor -> adapter -> wallet (LogTransfer logs 250, 253; internal rows). ' +
      "amount = what left the wallet, 18970181 / 1e6 (the front end's commission taken from the input is part of it); amountSol = WPOL paid by the pool, 22278327092660803452 / 1e18. " +
      'dex: a front end forwarding to an aggregator takes the aggregator slug (openocean). ' +
      'Token symbol: on-chain symbol() of 0x2791 is "USDC" (explorers relabel it USDC.e); not in tokens.json.',
    ambiguous:
      "OpenOcean's router appears only as the emitter of Swapped (log 251) and as spender in Approval log 244; no token passes through 0x6352a56c itself. " +
      'Symbol of 0x2791bca1 taken as on-chain "USDC" (PolygonScan shows USDC.e).',
    venues: [
      {
        address: '0xa374094527e1673a86de625aa59517c5de346d32',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
        token1: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174',
        fee: 500,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0x4f72cff63802c8eed51662e3d1e20bc7e86ac06cdc1aa490c26cfeee075b6018',
    chain: 'polygon',
    wallet: '0xe03679b59ac0026036ba4518bc0d5e5f800bd9c1',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        amount: '4',
        amountSol: null,
        dex: 'paraswap',
      },
      {
        side: 'buy',
        token: 'DAI',
        tokenMint: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
        amount: '3.99961883661790173',
        amountSol: null,
        dex: 'paraswap',
      },
    ],
    why:
      'swapExactAmountInOnUniswapV3 style call (SwappedDirect log 312) on ParaSwap Augustus V5 0xdef171fe48cf0115b1d80b88dc8eab59176fee57. ' +
      'The wallet sends 4000000 native USDC (0x3c49..., 6 dec, 4; log 306) to Augustus, which pays Uniswap V3 pool 0xf3692776 (log 308; Swap log 309: amount0 +4000000, amount1 -3999618836617901730); the pool pays 3999618836617901730 DAI to Augustus (log 307), which sends 3999618836617901730 to the wallet (log 311) and 2 wei to the partner/fee address 0x8b5cf413 (log 310). ' +
      'Token to token with no POL leg: amountSol null on both. amount sold = 4000000 / 1e6; amount bought = 3999618836617901730 / 1e18 (what reached the wallet). ' +
      'dex: the aggregator called (paraswap).',
    venues: [
      {
        address: '0xf369277650ad6654f25412ea8bfbd5942733babc',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        token1: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
        fee: 100,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0xafaf61e1f897f394780d069627d1ac1e5f68ad31a00ed72533ce4c709d381a44',
    chain: 'polygon',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [],
    why:
      'Bridge out through Socket Gateway 0x3a23f943181408eac424116af7b7790c94cb97a5. ' +
      'The wallet sends 713947477 USDC (0x2791, 6 dec; log 74) to the gateway, which has 0x (Exchange Proxy, TransformedERC20 log 85, flash wallet 0xdb6f1920) swap it to 713772217106516671448 DAI (Synapse pool 0x85fcd7dd, logs 79-83) and passes the DAI to 0x28529fec (log 87) -> Synapse pool 0x25fb92e5 (logs 90-93) for nUSD 0xb8901acb, which is burned (log 94) with a bridge event (log 95, chain 0x64). ' +
      "The wallet's only balance change on Polygon is -713.947477 USDC; it receives nothing in this transaction, so there is no trade.",
    ambiguous:
      "The USDC->DAI leg is a swap paid with the wallet's USDC and could be read as sell USDC / buy DAI (0x). " +
      'Rejected: the DAI never reaches the wallet, it is bridged away in the same transaction (same reading as the base Socket bridge).',
  },
  {
    hash: '0x8e7c52d519d1ca0d1dfd8c8c21a2d2c34574e2bdada0ae7faafd49c1ddb8e8a6',
    chain: 'polygon',
    wallet: '0x701d5a3344c98765b36014a8a71941f499a2bc75',
    trades: [
      {
        side: 'buy',
        token: 'USDT',
        tokenMint: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
        amount: '0.146129',
        amountSol: '0.130848158787696777',
        dex: '0x',
      },
    ],
    why:
      'transformERC20 on the 0x Exchange Proxy 0xdef1c0ded9bec7f1a1670819833240f027b25eff with 130848158787696777 wei POL (tx value, LogTransfer log 262). ' +
      'The flash wallet 0xdb6f1920 wraps it (WPOL Deposit log 265) and pays 130848158787696777 WPOL into V2 pair 0xf7bc741b (log 266; V2 Swap log 269, BridgeFill source "WaultSwap" log 270), which pays 146347 USDT (6 dec) to the flash wallet (log 267). ' +
      'The flash wallet sends 218 USDT to 0xad01c20d (0x affiliate fee, log 271) and 146129 to the wallet (log 272); TransformedERC20 log 273 agrees (146129). ' +
      'amount = 146129 / 1e6 (fee excluded); amountSol = WPOL into the pair, 130848158787696777 / 1e18. dex: the aggregator called (0x).',
  },
  {
    hash: '0x7b1bef89b8890e060787924a279e040ce8d50aedd35337747af6d56024ce269e',
    chain: 'polygon',
    wallet: '0xb3dd5cdb7f73acd1177c96409412e0b326e9c457',
    trades: [
      {
        side: 'buy',
        token: 'BULL',
        tokenMint: '0x9f95e17b2668afe01f8fbd157068b0a4405cc08d',
        amount: '10313.421767180867447506',
        amountSol: '58.6229436575138',
        dex: '0x',
      },
    ],
    why:
      'transformERC20 on the 0x Exchange Proxy with 58622943657513800000 wei POL (tx value; LogTransfer log 660). ' +
      'The flash wallet 0xdb6f1920 wraps it (Deposit log 663) and pays 58622943657513800000 WPOL into QuickSwap V3 (Algebra) pool 0xa2c908a2 (log 666; Swap log 667, BridgeFill source "QuickSwapV3" log 668), which pays 10313421767180867447506 BULL (tokens.json: 18 dec) to the flash wallet (log 665); the flash wallet sends it all to the wallet (log 669); TransformedERC20 log 670 agrees. ' +
      'amount = 10313421767180867447506 / 1e18; amountSol = WPOL into the pool, 58622943657513800000 / 1e18. dex: the aggregator called (0x).',
    venues: [
      {
        address: '0xa2c908a216d4d273e71fdb8567c4a8295717064d',
        kind: 'v3',
        factory: '0x411b0facc3489691f28ad58c47006af5e3ab3a28',
        token0: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
        token1: '0x9f95e17b2668afe01f8fbd157068b0a4405cc08d',
        source:
          "CREATE2(QuickSwap V3 (Algebra) pool deployer 0x2d98e2fa9da15aa6dc9581ab097ced7af697cb92, keccak(abi.encode(token0, token1)), init code hash 0x6ec6c9c8091d160c0aa74b2b14ba9c1717e95093bd3ac085cee99a49aab294a4) equals the pool address; the pool's factory() is the AlgebraFactory 0x411b0facc3489691f28ad58c47006af5e3ab3a28",
      },
    ],
  },
  {
    hash: '0x2004f7b593d4ddf9372d78adb4b89852fa70eafa42418793b142a881b4171974',
    chain: 'polygon',
    wallet: '0x9d38bc769b4e88da3f4c31a06b626ef88a21065c',
    trades: [
      {
        side: 'sell',
        token: 'WETH',
        tokenMint: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        amount: '0.017521626565388156',
        amountSol: null,
        dex: 'uniswap-v3',
      },
      {
        side: 'buy',
        token: 'WBTC',
        tokenMint: '0x1bfd67037b42cf73acf2047067bd4f2c47d9bfd6',
        amount: '0.00097703',
        amountSol: null,
        dex: 'uniswap-v3',
      },
    ],
    why:
      "Uniswap's Universal Router 0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad (not an aggregator: each leg takes its pool's venue), Permit2 permit log 573. " +
      'The wallet pays 17521626565388156 WETH (18 dec; log 575) into pool 0x50eaedb8 (Swap log 577: amount0 -97703, amount1 +17521626565388156), which pays 97703 WBTC (8 dec, 0.00097703; log 574) straight to the wallet. ' +
      'WETH is an ordinary token on Polygon (native is POL), so this is token to token with no native leg: amountSol null on both. ' +
      'Pool 0x50eaedb8 is Uniswap V3 (fee 500) by CREATE2.',
    venues: [
      {
        address: '0x50eaedb835021e4a108b7290636d62e9765cc6d7',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x1bfd67037b42cf73acf2047067bd4f2c47d9bfd6',
        token1: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        fee: 500,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0xe90ed71875ff44ea45ea960d006ec4c0ccb86506cba494471aba4ba9dc86123f',
    chain: 'polygon',
    wallet: '0xdaa9e3ca7500d7ba3855df9d8bccde229c13919e',
    trades: [],
    why:
      'Negative: withdraw() on WPOL itself (Withdrawal log 181, 4975099500000000000 wei; POL back by LogTransfer log 180 / internal row). ' +
      'Unwrapping the native coin is not a trade.',
  },
  {
    hash: '0xba581391d417a6dcc31031f1cf7cba6e63b701a8680828445ffdde73777843e1',
    chain: 'polygon',
    wallet: '0x33c0aae5b2b6eae2a6286b3a6621b55dcc02dc9e',
    trades: [],
    why: 'Negative: deposit() on WPOL with 119975669998497470000 wei (Deposit log 506). Wrapping the native coin is not a trade.',
  },
  {
    hash: '0xfd32220a3dfad3a74b0e172b88f0052670cd60b72f4b0cf19ded4a4145ba4a2b',
    chain: 'polygon',
    wallet: '0x686e14afb1ab9eb5ab89593dde9fce9389ca8c35',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        amount: '11.419216',
        amountSol: null,
        dex: 'kyberswap',
      },
      {
        side: 'buy',
        token: 'BAL',
        tokenMint: '0x9a71012b13ca4d3d0cdc72a177df3ef03b0e76a3',
        amount: '3.214374219088998048',
        amountSol: null,
        dex: 'kyberswap',
      },
    ],
    why:
      'KyberSwap MetaAggregationRouterV2 0x6131b5fae19ea4f9d964eac0408e4408b66337b5 (Swapped log 196). ' +
      "The wallet pays 11419216 native USDC (6 dec; log 185) straight into QuickSwap V2 pair 0x7baf833f (V2 Swap log 188), which pays 3799978981942288 WETH to Kyber's executor 0xf081470f (log 186); the executor swaps it in the Balancer V2 Vault (Swap log 190, pool 0x3d468ab2..., WETH -> BAL 3214374219088998048; logs 191/193) and sends 3214374219088998048 BAL (Balancer (PoS), 18 dec) to the wallet (log 195). " +
      'WETH is not the native coin on Polygon: token to token, amountSol null. dex: the aggregator called (kyberswap).',
    venues: [
      {
        address: '0x7baf833f82bb1971f99a5a5d84bed1d5d0dedd70',
        kind: 'v2',
        factory: '0x5757371414417b8c6caad45baef941abc7d3ab32',
        token0: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        token1: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        source:
          'CREATE2(QuickSwap V2 factory 0x5757371414417b8c6caad45baef941abc7d3ab32, keccak(token0 ++ token1), init code hash 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f) equals the pool address',
      },
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        source: 'Balancer V2 Vault (same address on every chain Balancer V2 runs on; docs.balancer.fi deployment addresses)',
      },
    ],
  },
  {
    hash: '0x82bd45bcf1faf80f4b2e0d12b3e45c5801d1065a7e6a7daf68cd35a3a33c5fc7',
    chain: 'polygon',
    wallet: '0xb14cf335808931bded4b232c6d01c65e5e73237f',
    trades: [
      {
        side: 'sell',
        token: 'BTC.b',
        tokenMint: '0x2297aebd383787a160dd0d9f71508148769342e3',
        amount: '0.0000019',
        amountSol: '0.217325398483406396',
        dex: 'odos',
      },
    ],
    why:
      'Odos Router V2 on Polygon 0x4e3288c9ca110bcc82bf38f09a7b425c095d92bf (Odos Swap log 178). ' +
      'The wallet sends 190 BTC.b (tokens.json: 8 dec, 0.0000019; log 167) to the Odos executor 0xa8376f53, which swaps it in Uniswap V3 pool 0xdc57a53f (Swap log 170) for 33357092550988 WETH and that in V3 pool 0x1a34eabb (Swap log 173) for 217325398483406396 WPOL (log 171); the executor unwraps (Withdrawal log 175) and the POL goes executor -> router -> wallet (LogTransfer logs 176-177, internal rows). ' +
      'amount = 190 / 1e8; amountSol = WPOL paid by the last pool, 217325398483406396 / 1e18. dex: the aggregator called (odos).',
    venues: [
      {
        address: '0xdc57a53f2b94e4f1292679bbacb1e787f1898cf0',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x2297aebd383787a160dd0d9f71508148769342e3',
        token1: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        fee: 3000,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 3000)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0x730cb91f140a8574978f76dd22b1b84318cc73b762f22ec2db1c5673bfb976ad',
    chain: 'polygon',
    wallet: '0xf3c25eff97d5c7f8c3e741fd4698d407112691af',
    trades: [
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        amount: '0.01',
        amountSol: '0.020592381778840645',
        dex: 'paraswap',
      },
    ],
    why:
      'Exact-output buy on ParaSwap Augustus V6.2 0x6a000f20005980200259b80c5102003040001068 with 20695343687734848 wei POL (tx value). ' +
      'Augustus wraps it (Deposit log 291), pays 20592381778840645 WPOL into Uniswap V2 pair 0x1f0c5400 (log 292; V2 Swap log 295), which pays 10000 native USDC (6 dec, 0.01; log 293) to Augustus, forwarded to the wallet (log 298). ' +
      'The unused 102961908894203 WPOL is unwrapped (Withdrawal log 297) and refunded to the wallet (LogTransfer log 299, internal row). ' +
      'amount = 10000 / 1e6; amountSol = WPOL into the pair, 20592381778840645 / 1e18 (= 20695343687734848 sent - 102961908894203 refunded). ' +
      'dex: the aggregator called (paraswap).',
    venues: [
      {
        address: '0x1f0c5400a3c7e357cc7c9a3d2f7fe6ddf629d868',
        kind: 'v2',
        factory: '0x9e5a52f57b3038f1b8eee45f28b3c1967e22799c',
        token0: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
        token1: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        source:
          'CREATE2(Uniswap V2 (Polygon) factory 0x9e5a52f57b3038f1b8eee45f28b3c1967e22799c, keccak(token0 ++ token1), init code hash 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f) equals the pool address',
      },
    ],
  },
  {
    hash: '0x4c335999c657e3d6f4dfe875d50911a844580c42a667d6952211459c0eae587d',
    chain: 'polygon',
    wallet: '0x9b3df1109cd696f08eeda860c6d5da56d3da2daf',
    trades: [
      {
        side: 'sell',
        token: 'USDT',
        tokenMint: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
        amount: '10000',
        amountSol: null,
        dex: 'openocean',
      },
      {
        side: 'buy',
        token: 'LINK',
        tokenMint: '0x53e0bca35ec356bd5dddfebbd1fc0fd03fabad39',
        amount: '433.966123379781075037',
        amountSol: null,
        dex: 'openocean',
      },
    ],
    why:
      'OpenOceanExchange V2 0x6352a56caadc4f1e25cd6c75970fa768a3304e64 (Swapped log 32). ' +
      'The wallet sends 10000000000 USDT (6 dec, 10000; log 12) to the executor 0x1e82ad8a, which splits USDT -> native USDC over QuickSwap V3 pool 0x0e3eb2c7 (6400000000, logs 15-18) and Uniswap V3 pool 0x31083a78 (3600000000, logs 19-21), then USDC -> LINK over Uniswap V3 pool 0x79e4240e (121644084672953253872 LINK, logs 22-24) and QuickSwap V3 pool 0xc10a0686 (312756439230731505924 LINK, logs 26-29). ' +
      'Of the 434400523903684759796 LINK the executor sends 434400523903684759 to 0x922164bb (fee, log 30) and 433966123379781075037 to the wallet (log 31). ' +
      'LINK (ChainLink Token (PoS)) 18 dec. No POL leg: amountSol null on both. dex: the aggregator called (openocean).',
    venues: [
      {
        address: '0x0e3eb2c75bd7dd0e12249d96b1321d9570764d77',
        kind: 'v3',
        factory: '0x411b0facc3489691f28ad58c47006af5e3ab3a28',
        token0: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        token1: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
        source:
          "CREATE2(QuickSwap V3 (Algebra) pool deployer 0x2d98e2fa9da15aa6dc9581ab097ced7af697cb92, keccak(abi.encode(token0, token1)), init code hash 0x6ec6c9c8091d160c0aa74b2b14ba9c1717e95093bd3ac085cee99a49aab294a4) equals the pool address; the pool's factory() is the AlgebraFactory 0x411b0facc3489691f28ad58c47006af5e3ab3a28",
      },
      {
        address: '0x31083a78e11b18e450fd139f9abea98cd53181b7',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        token1: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
        fee: 100,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
      {
        address: '0x79e4240e33c121402dfc9009de266356c91f241d',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        token1: '0x53e0bca35ec356bd5dddfebbd1fc0fd03fabad39',
        fee: 3000,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 3000)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
      {
        address: '0xc10a06863f858f67c2cd46f1675ee029d3f7acd8',
        kind: 'v3',
        factory: '0x411b0facc3489691f28ad58c47006af5e3ab3a28',
        token0: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        token1: '0x53e0bca35ec356bd5dddfebbd1fc0fd03fabad39',
        source:
          "CREATE2(QuickSwap V3 (Algebra) pool deployer 0x2d98e2fa9da15aa6dc9581ab097ced7af697cb92, keccak(abi.encode(token0, token1)), init code hash 0x6ec6c9c8091d160c0aa74b2b14ba9c1717e95093bd3ac085cee99a49aab294a4) equals the pool address; the pool's factory() is the AlgebraFactory 0x411b0facc3489691f28ad58c47006af5e3ab3a28",
      },
    ],
  },
  {
    hash: '0xae411965ab6c572be23f62438e9d57e04be369d37a661a58e5d1cce9545c0ac9',
    chain: 'polygon',
    wallet: '0xf14b9e45d0426c4508b5340a57390e79bacaf396',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174',
        amount: '67.14398',
        amountSol: null,
        dex: 'paraswap',
      },
      {
        side: 'buy',
        token: 'AKRE',
        tokenMint: '0xe9c21de62c5c5d0ceacce2762bf655afdceb7ab3',
        amount: '55152.6107',
        amountSol: null,
        dex: 'paraswap',
      },
    ],
    why:
      'Exact-output swap on Uniswap V3 through ParaSwap Augustus V6.2 0x6a000f20. ' +
      'The wallet pays 67143980 bridged USDC (0x2791, 6 dec; log 266) straight into pool 0x65906dbd (Swap log 268: amount0 +67143980, amount1 -55152610700000000000000), which pays 55152610700000000000000 AKRE (tokens.json: 18 dec) to Augustus (log 265), forwarded to the wallet (log 269). ' +
      'No POL leg: amountSol null. dex: the aggregator called (paraswap).',
    ambiguous: 'Symbol of 0x2791bca1 taken as its on-chain symbol() "USDC" (PolygonScan labels it USDC.e); not in tokens.json.',
    venues: [
      {
        address: '0x65906dbdfca73c67cf35744864d2f3f9f71a8c44',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x2791bca1f2de4661ed88a30c99a7a9449aa84174',
        token1: '0xe9c21de62c5c5d0ceacce2762bf655afdceb7ab3',
        fee: 3000,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 3000)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0x240ab184f97590310a32b77ebbcaa80f898a01c29592f41442391c67f7e20360',
    chain: 'polygon',
    wallet: '0x383d65320c9f1f4109deb828d29fc7573122e9a7',
    trades: [
      {
        side: 'buy',
        token: 'SAND',
        tokenMint: '0xbbba073c31bf03b8acf7c28ef0738decf3695683',
        amount: '7.29700878889547439',
        amountSol: '9.9001275',
        dex: '0x',
      },
    ],
    why:
      "Sent with 10 POL to Rainbow's router 0x00000000009726632680fb29d3f7a9734e3010e2 (a wallet front end), which keeps 0.085 POL (Rainbow's 0.85% fee) and forwards 9.915 POL to 0x AllowanceHolder 0x0000000000001ff3684f28c67538d4d072c22734, which calls 0x Settler 0x7f20a7a526d1bab092e3be0733d96287e93cef59 (LogTransfer logs 265-267, internal rows). " +
      'The Settler pays 0.0148725 POL to 0xad01c20d (0x fee, log 268), wraps 9.9001275 (Deposit log 270), pays 9652624312500000000 WPOL into QuickSwap V3 pool 0xd85a2533 (log 273; Swap log 275) for 7110953276050119553 SAND (log 272), unwraps 247503187500000000 (Withdrawal log 277) and pays it to the Uniswap V4 PoolManager 0x67366782 (LogTransfer log 280; V4 Swap log 278, pool 0x4e7d72ec..., amount0 -247503187500000000 native, amount1 +186055512845354837) for 186055512845354837 SAND (log 279). ' +
      '7297008788895474390 SAND goes Settler -> Rainbow router -> wallet (logs 281-282). ' +
      "amount = 7297008788895474390 / 1e18 (SAND, 18 dec); amountSol = POL paid into the two venues, 9652624312500000000 + 247503187500000000 = 9900127500000000000 wei (Rainbow's and 0x's fees excluded). " +
      'dex: a front end forwarding to an aggregator takes its slug (0x).',
    venues: [
      {
        address: '0xd85a25332b57cc447a791100e7317e534d553761',
        kind: 'v3',
        factory: '0x411b0facc3489691f28ad58c47006af5e3ab3a28',
        token0: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
        token1: '0xbbba073c31bf03b8acf7c28ef0738decf3695683',
        source:
          "CREATE2(QuickSwap V3 (Algebra) pool deployer 0x2d98e2fa9da15aa6dc9581ab097ced7af697cb92, keccak(abi.encode(token0, token1)), init code hash 0x6ec6c9c8091d160c0aa74b2b14ba9c1717e95093bd3ac085cee99a49aab294a4) equals the pool address; the pool's factory() is the AlgebraFactory 0x411b0facc3489691f28ad58c47006af5e3ab3a28",
      },
      {
        address: '0x67366782805870060151383f4bbff9dab53e5cd6',
        kind: 'v4',
        source:
          'Uniswap V4 PoolManager on Polygon (docs.uniswap.org/contracts/v4/deployments, Polygon: 137); pool 0x4e7d72ec... has currency0 = native POL, currency1 = SAND (from the Swap signs and logs 279-280)',
      },
    ],
  },
  {
    hash: '0xf09d96ecf300948b70c60ec1804202f4a30d20b4ee4de51a8a327c884e053f16',
    chain: 'polygon',
    wallet: '0xd5c6952b0d57830118ac3f32b6b31e8288bef9bb',
    trades: [
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        amount: '2.42409',
        amountSol: '11.42',
        dex: '0x',
      },
    ],
    why:
      "Sent with 11.42 POL straight to 0x Settler 0x7f20a7a526d1bab092e3be0733d96287e93cef59 (a Settler instance: rotki's 0x decoder lists 0x7f20a7a5 among Settler addresses (V1.8) and its Polygon test decodes this very transaction as a Settler swap; the replay's deployer-registry logs must name it). " +
      'It wraps 11.42 (Deposit log 266), unwraps and pays 6.852 POL (log 271) and 4.568 POL (log 276) into the Uniswap V4 PoolManager 0x67366782: V4 Swap log 269 (native -> 1457133 USDC.e) and log 274 (native -> 971579 USDT); then V4 Swaps 277/280 turn 695343 + 761790 USDC.e into 695082 + 761507 native USDC and Swap 283 turns 971579 USDT into 971142 USDC (logs 278-285). ' +
      'Of the 2427731 USDC the Settler sends 3641 to 0xad01c20d (0x fee, log 286) and 2424090 to the wallet (log 287). USDC.e and USDT are pass-through legs. ' +
      'amount = 2424090 / 1e6; amountSol = POL paid into the PoolManager, 6852000000000000000 + 4568000000000000000 = 11420000000000000000 wei. ' +
      'dex: a route through a 0x Settler is 0x.',
    venues: [
      {
        address: '0x67366782805870060151383f4bbff9dab53e5cd6',
        kind: 'v4',
        source:
          'Uniswap V4 PoolManager on Polygon (docs.uniswap.org/contracts/v4/deployments). Pools 0xe1e3c5d3 and 0x86e87913 have currency0 = native POL (amount0 negative = POL paid in), currency1 = USDC.e / USDT',
      },
    ],
  },
  {
    hash: '0x458e77cd77833f48d314edcea1323dd123c3b1f5d4a4b375674cfc4292810548',
    chain: 'polygon',
    wallet: '0xe7c3e5d4d38bd0e767f9913cfc5cd8cf25280cad',
    trades: [
      {
        side: 'sell',
        token: 'DAI',
        tokenMint: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
        amount: '112',
        amountSol: null,
        dex: 'quickswap-v2',
      },
      {
        side: 'buy',
        token: 'LGNS',
        tokenMint: '0xeb51d9a39ad5eef215dc0bf39a8821ff804a0f01',
        amount: '6.56009079',
        amountSol: null,
        dex: 'quickswap-v2',
      },
    ],
    why:
      "swapExactTokensForTokensSupportingFeeOnTransferTokens on QuickSwap's router 0xa5e0829c (a protocol router). " +
      'The wallet pays 112000000000000000000 DAI (18 dec, 112; log 112) into pair 0x882df4b0 (V2 Swap log 117: amount0In 112e18, amount1Out 6560090790), which pays 6560090790 LGNS (tokens.json: 9 dec, 6.56009079; log 115) straight to the wallet; the wallet received exactly what the pair sent (log 114 from 0x280537d9 is an LGNS-side event, no extra transfer). ' +
      'Token to token, no POL leg: amountSol null. Pair 0x882df4b0 is QuickSwap V2 by CREATE2.',
    venues: [
      {
        address: '0x882df4b0fb50a229c3b4124eb18c759911485bfb',
        kind: 'v2',
        factory: '0x5757371414417b8c6caad45baef941abc7d3ab32',
        token0: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
        token1: '0xeb51d9a39ad5eef215dc0bf39a8821ff804a0f01',
        source:
          'CREATE2(QuickSwap V2 factory 0x5757371414417b8c6caad45baef941abc7d3ab32, keccak(token0 ++ token1), init code hash 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f) equals the pool address',
      },
    ],
  },
  {
    hash: '0x68ee836e5e78f30d084f88e47450217af0d199a8b24784ec799b837aa458888a',
    chain: 'polygon',
    wallet: '0x6361f989eff9fe22e8a8c08ace34f0d30b760a4e',
    trades: [
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        amount: '5.809487',
        amountSol: '24.925626264370982566',
        dex: 'magpie',
      },
    ],
    why:
      'Sent with 24988096505635070242 wei POL to Magpie (Fly.trade) Router V3.1 0xa6e941eab67569ca4522f70d343714ff51d571c4 (rotki and DefiLlama list it as Magpie V3.1 on Polygon). ' +
      'The router pays 62470241264087676 POL (0.25%) to 0x39041f1b (a fee) and 24925626264370982566 to executor 0x3611b82c (LogTransfer logs 679-680), which wraps it (Deposit log 682) and pays it into V3 pool 0x1a34eabb (log 684; Swap log 685) for 2050239332302861 WETH, then WETH into Uniswap V3 pool 0x80cdade0 (Swap log 688) for 5809487 native USDC, sent to the wallet (log 689). ' +
      'amount = 5809487 / 1e6; amountSol = WPOL into the first pool, 24925626264370982566 / 1e18 (the 0.25% fee excluded). dex: the aggregator called (magpie).',
    ambiguous:
      "decisions.md's slug list does not name Magpie. " +
      "Read as an aggregator (the contract the transaction called, which routed the swap) it is 'magpie'; a decoder that does not know Magpie would fall back to the venue that delivered the USDC, Uniswap V3 pool 0x80cdade0 ('uniswap-v3').",
    venues: [
      {
        address: '0x80cdade01ff626b7cce4772e3c2d56db14f384fa',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        token1: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619',
        fee: 100,
        source:
          'CREATE2(Uniswap V3 factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, keccak(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0x2277ee48d4e5394a59500a9f70ab29c12b27b28398973e6ca2666143dd690358',
    chain: 'polygon',
    wallet: '0x7e25f8488d25152437dbecc787f655966dd00c67',
    trades: [],
    why:
      'Negative: liquidity add through the Uniswap V4 PositionManager 0x1ec2ebf4 (Initialize log 441 for a new oAUTO/USDT pool, position NFT mint log 442, ModifyLiquidity log 443 +836540607746); the wallet pays oAUTO and USDT into the PoolManager (logs 444, 446) and receives only the NFT. ' +
      'Not a trade.',
  },
  {
    hash: '0x550832040e57647103a03e23eba5ce869f8a96c3e8b92f1f9258024a286e2525',
    chain: 'polygon',
    wallet: '0x2fcc69eaa8c9f33538cbac50eb5432c422825e6d',
    trades: [],
    why:
      'Negative: liquidity remove through the Uniswap V4 PositionManager (ModifyLiquidity log 258 with liquidityDelta -2691379232169179767); the PoolManager pays POL (LogTransfer log 259) and WETH (log 260) to the wallet. ' +
      'Nothing is given: not a trade.',
  },
  {
    hash: '0x98f0826b1e937df24afcd1bafe23a7ea8bf2388bf030bdccabc1259652efda6e',
    chain: 'polygon',
    wallet: '0x399e196846e1061c34651a1699f3fac43a861d51',
    trades: [
      {
        side: 'sell',
        token: 'USDT',
        tokenMint: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
        amount: '5.8559',
        amountSol: null,
        dex: 'uniswap-v2',
      },
      {
        side: 'buy',
        token: 'MEN',
        tokenMint: '0x94b959c93761835f634b8d6e655070c58e2caa12',
        amount: '1122.506594',
        amountSol: null,
        dex: 'uniswap-v2',
      },
    ],
    why:
      'swapExactTokensForTokensSupportingFeeOnTransferTokens on the Uniswap V2 Router02 on Polygon 0xedf6066a2b290c185783862c7f4776a2c8077ad1 (Uniswap v2 deployments page). ' +
      'The wallet pays 5855900 USDT (6 dec; log 63) into pair 0xd12ba2a4 (V2 Swap log 67: amount1In 5855900, amount0Out 1122506594), which pays 1122506594 MEN (tokens.json: 6 dec, 1122.506594; log 65) straight to the wallet. ' +
      'Token to token: amountSol null. Pair 0xd12ba2a4 is Uniswap V2 (Polygon factory) by CREATE2.',
    venues: [
      {
        address: '0xd12ba2a40289ed8728682447dc77d001f03675f9',
        kind: 'v2',
        factory: '0x9e5a52f57b3038f1b8eee45f28b3c1967e22799c',
        token0: '0x94b959c93761835f634b8d6e655070c58e2caa12',
        token1: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f',
        source:
          'CREATE2(Uniswap V2 (Polygon) factory 0x9e5a52f57b3038f1b8eee45f28b3c1967e22799c, keccak(token0 ++ token1), init code hash 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f) equals the pool address',
      },
    ],
  },
  {
    hash: '0x50c55589a2a7b97bdb0c46815783993133c8bd099d9fcc8b91e2e465f00f4687',
    chain: 'polygon',
    wallet: '0x1834e499ea7f6759992aad97362d985aa2efa5fc',
    trades: [
      {
        side: 'sell',
        token: 'LGNS',
        tokenMint: '0xeb51d9a39ad5eef215dc0bf39a8821ff804a0f01',
        amount: '6',
        amountSol: null,
        dex: 'quickswap-v3',
      },
      {
        side: 'buy',
        token: 'DAI',
        tokenMint: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
        amount: '60.81850271428595855',
        amountSol: null,
        dex: 'quickswap-v3',
      },
    ],
    why:
      "exactInputSingle on QuickSwap V3's SwapRouter 0xf5b509bb0909a69b1c207e495f687a596c168e12 (a protocol router). " +
      'The wallet pays 6000000000 LGNS (9 dec, 6; log 53) into Algebra pool 0xb135aa99 (Swap log 55: amount0 -60818502714285958550, amount1 +6000000000), which pays 60818502714285958550 DAI (18 dec) straight to the wallet (log 52). ' +
      'Token to token: amountSol null. Pool 0xb135aa99 is QuickSwap V3 (Algebra) by CREATE2.',
    venues: [
      {
        address: '0xb135aa990d02e0a31ce953af2bd7ed0ef6587403',
        kind: 'v3',
        factory: '0x411b0facc3489691f28ad58c47006af5e3ab3a28',
        token0: '0x8f3cf7ad23cd3cadbd9735aff958023239c6a063',
        token1: '0xeb51d9a39ad5eef215dc0bf39a8821ff804a0f01',
        source:
          "CREATE2(QuickSwap V3 (Algebra) pool deployer 0x2d98e2fa9da15aa6dc9581ab097ced7af697cb92, keccak(abi.encode(token0, token1)), init code hash 0x6ec6c9c8091d160c0aa74b2b14ba9c1717e95093bd3ac085cee99a49aab294a4) equals the pool address; the pool's factory() is the AlgebraFactory 0x411b0facc3489691f28ad58c47006af5e3ab3a28",
      },
    ],
  },
  {
    hash: '0x2c8cac577a6e4819fcc280e92645d9096d85f0941882079f54947c35af4f9d8f',
    chain: 'polygon',
    wallet: '0x19e4057a38a730be37c4da690b103267aae1d75d',
    trades: [
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359',
        amount: '109.978185',
        amountSol: '907.34454199701218547',
        dex: 'cow',
      },
    ],
    why:
      'CoW Protocol settlement (GPv2Settlement 0x9008d19f; solver 0xc44afc0d, Settlement log 826). ' +
      "The only Trade (log 812) has owner 0xba3cb449bd2b4adddbc894d8697f5170800eadec, CoW's EthFlow contract: an ETH-flow order selling native POL. " +
      'The EthFlow contract wraps 907344541997012185470 wei (Deposit log 810) and the Trade sells 907344541997012185470 WPOL (feeAmount 0) for 109978185 native USDC; the settlement pays 109978185 USDC (6 dec) to the order receiver 0x19e4057a (log 825). ' +
      'Per decisions.md the trade belongs to the wallet that placed the order and is a buy: amount = what reached the receiver, 109978185 / 1e6; amountSol = sellAmount + feeAmount = 907344541997012185470 / 1e18. ' +
      'dex cow.',
    ambiguous:
      "The order's placer is the `sender` of EthFlow's OrderPlacement event, which is in the placement transaction, not in this receipt. " +
      "The wallet is taken to be the order's receiver 0x19e4057a (CoW's UI sets receiver = placer; rotki's tests use this address as the user); the replay must answer the OrderPlacement lookup accordingly.",
  },
  {
    hash: '0x8cf8362f36e5a76912bc05ef804c0ea4b4f2de54700afe9ced99aa486f3dd0e8',
    chain: 'gnosis',
    wallet: '0xd6f585378f3232e440b165ad56658bfca76d1b32',
    trades: [],
    why: 'Negative: deposit() on WXDAI with 103 xDAI (Deposit log 4). Wrapping the native coin is not a trade.',
  },
  {
    hash: '0x4f34125588875b708faae04c0711473171982b48f7c0f2de8ca33bc5dcc974a3',
    chain: 'gnosis',
    wallet: '0xeccf11f03cefe8a68bb01caf66e76ceefeaaee5e',
    trades: [
      {
        side: 'sell',
        token: 'EURe',
        tokenMint: '0xcb444e90d8198415266c6a2724b7900fb12fc56e',
        amount: '15',
        amountSol: null,
        dex: 'cow',
      },
      {
        side: 'buy',
        token: 'GNO',
        tokenMint: '0x9c58bacc331c9aa871afd802db6379a98e80cedb',
        amount: '0.056204042821142175',
        amountSol: null,
        dex: 'cow',
      },
    ],
    why:
      'CoW Protocol settlement (GPv2Settlement 0x9008d19f, solver 0x05654502, Settlement log 830). ' +
      'Trade log 805: owner 0xeccf11f0 sells 15000000000000000000 EURe (0xcb444e90, 18 dec) for 56204042821142175 GNO (18 dec), feeAmount 0. ' +
      'The owner pays 15 EURe to the settlement (log 807) and receives 56204042821142175 GNO from it (log 829). ' +
      'The solver routed EURe -> x3CRV (Curve pool 0x056c6c5e, TokenExchange log 818) -> WXDAI (Curve 3pool 0x7f90122b remove_liquidity_one_coin, logs 819-821) -> GNO (Balancer V2 Swap log 824, through 1inch v5) but a settlement order between two non-native tokens has amountSol null whatever the solver routed through (decisions.md). ' +
      'The wallet is the order owner. dex cow.',
  },
  {
    hash: '0xa251a5069f7bddf590381ed6716f122f09df18ac89a6479ca6086b7981539a7e',
    chain: 'gnosis',
    wallet: '0xba7551e55eb7513f209beee476c175d367d35e39',
    trades: [
      {
        side: 'sell',
        token: 'EURe',
        tokenMint: '0xcb444e90d8198415266c6a2724b7900fb12fc56e',
        amount: '2741.986958894639299486',
        amountSol: '2974.356631003171669712',
        dex: 'cow',
      },
    ],
    why:
      'CoW settlement with two Trades (solver 0x227fda1d, Settlement log 3268); this entry is the first owner. ' +
      'Trade log 3218: owner 0xba7551e5 sells 2741986958894639299486 EURe (0xcb444e90, 18 dec; paid to the settlement, log 3221) for buyToken 0xeeee... ' +
      '(native xDAI), buyAmount 2974356631003171669712, feeAmount 0. ' +
      'The settlement unwraps WXDAI (Withdrawal log 3265) and pays 2974356631003171669712 wei xDAI to the owner (internal rows). ' +
      'A sell for native: amount = 2741986958894639299486 / 1e18; amountSol = the native amount of the order, 2974356631003171669712 / 1e18. dex cow.',
  },
  {
    hash: '0xa251a5069f7bddf590381ed6716f122f09df18ac89a6479ca6086b7981539a7e',
    chain: 'gnosis',
    wallet: '0xc33e3ec14556a8e71be3097fe2dc8c0b9119c897',
    trades: [
      {
        side: 'sell',
        token: 'wstETH',
        tokenMint: '0x6c76971f98945ae98dd7d4dfca8711ebea946ea6',
        amount: '0.003784253743326722',
        amountSol: null,
        dex: 'cow',
      },
      {
        side: 'buy',
        token: 'sDAI',
        tokenMint: '0xaf204776c7245bf4147c2612bf6e5972ee483701',
        amount: '16.003936493820197569',
        amountSol: null,
        dex: 'cow',
      },
    ],
    why:
      'Second owner of the same settlement. ' +
      'Trade log 3219: owner 0xc33e3ec1 sells 3784253743326722 wstETH (Gnosis bridged wstETH, 18 dec; log 3222) for 16003936493820197569 sDAI (Savings xDAI, 18 dec), feeAmount 0; the settlement pays 16003936493820197569 sDAI to the owner (log 3267). ' +
      'The solver routed wstETH -> WETH (Balancer V2 Swap log 3251) -> WXDAI (pool 0x4a3fec34, Swap log 3259) -> sDAI minted to the settlement (ERC4626 Deposit log 3263), but an order between two non-native tokens has amountSol null. ' +
      'sDAI reaches the owner by transfer from the settlement as the bought token of its order (not minted to the owner against its own deposit), so it is a buy. dex cow.',
  },
  {
    hash: '0x69b568b97434807430a2f9eb5cbbbeaab701a32df76746a4e357386e5c431bab',
    chain: 'gnosis',
    wallet: '0xbd6f210a624a792e7d30a2f7591dc7abce2f3c48',
    trades: [],
    why:
      'LI.FI swap-and-send (integrator gnosis-pay; LiFiGenericSwapCompleted log 118 names receiver 0xcdf16e42b6740d906858f37e9be495a59daade9e). ' +
      'The wallet sends 4511739309 USDT (6 dec; log 100) to the LI.FI Diamond 0x1231deb6, which has 1inch v6 swap it (Balancer V2 Swaps logs 104-105: USDT -> sDAI -> EURe) into 4292336430016873387617 EURe, paid to the receiver 0xcdf16e42 (logs 115-116), not to the wallet. ' +
      "The wallet's only balance change is -4511.739309 USDT; it receives nothing, so there is no trade for it; the receiver gave nothing, so none for it either.",
    ambiguous:
      'Could be read as a sell of USDT by the sender (a swap paying out to another address). ' +
      'Rejected: decisions.md defines a trade by what the wallet gave and received, and the wallet received nothing (same reading as the bridge transactions).',
  },
  {
    hash: '0x421c23d305703a57ea0b64cfc75e8f13b6db2ef30fba321ae19eecd1b91695bc',
    chain: 'gnosis',
    wallet: '0xbf4ebea7279de8517f60bd5fdbe9aebe03de90ed',
    trades: [
      {
        side: 'sell',
        token: 'EURe',
        tokenMint: '0xcb444e90d8198415266c6a2724b7900fb12fc56e',
        amount: '4867.05',
        amountSol: '5023.5716702210346498',
        dex: 'paraswap',
      },
    ],
    why:
      'ParaSwap Augustus V6.2 0x6a000f20. ' +
      'The wallet sends 4867050000000000000000 EURe (logs 55/56, the two faces) to the executor 0x000010036c, which swaps it in the Balancer V2 Vault (Swap log 57: EURe -> 4405413556035036247901 sDAI) and has the Balancer V3 Vault 0xba1333333333a1ba1108e8412f11850a5c319ba9 take the sDAI (log 62) and pay 5023571670221034649800 WXDAI (log 67) after redeeming it at the sDAI vault (burn log 63, Withdraw log 65: 5023571670221034649802 WXDAI to the V3 Vault, which keeps 2 wei). ' +
      'Executor 0xe2fa4e1d unwraps 5023571670221034649800 (Withdrawal log 68); the xDAI goes to Augustus, which pays 5023571670221034649200 wei to the wallet and 600 wei to 0x00700052 (internal rows; a fee). ' +
      'amount = 4867050000000000000000 / 1e18; amountSol = the native amount the last venue (Balancer V3 Vault) paid the route, 5023571670221034649800 / 1e18 (the fee apart). ' +
      'dex: the aggregator called (paraswap). ' +
      "EURe on Gnosis has two contract faces over one ledger since Monerium's v2: the legacy v1 token 0xcb444e90 and the v2 token 0x420ca0f9; every EURe movement after the upgrade emits a Transfer on both (here logs come in pairs). " +
      "The trade is reported once, on 0xcb444e90, the address the venues themselves name (Balancer Swap tokenIn/tokenOut, CoW Trade buyToken, the Curve and Algebra pools' coin); the twin Transfer of 0x420ca0f9 is the same movement, not a second trade.",
    ambiguous:
      'EURe double face: the same movement shows as a Transfer of 0xcb444e90 (v1, legacy) and of 0x420ca0f9 (v2). ' +
      'Reporting it on 0x420ca0f9 instead (the canonical v2) is the other reading; reporting both would double the amount.',
    venues: [
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        source: 'Balancer V2 Vault (same address on every chain Balancer V2 runs on, Gnosis included; docs.balancer.fi deployment addresses)',
      },
      {
        address: '0xba1333333333a1ba1108e8412f11850a5c319ba9',
        kind: 'other',
        source: 'Balancer V3 Vault (same address on its chains; docs.balancer.fi deployment addresses); here its ERC4626 buffer unwraps sDAI to WXDAI (log 66)',
      },
    ],
  },
  {
    hash: '0x806a840fd2c7ed43eefb2069a3a1d1921b668f3762a3ec6928549055d5b65453',
    chain: 'gnosis',
    wallet: '0x1bc91ad00c40dde565a055bbe39069b84868738e',
    trades: [
      {
        side: 'buy',
        token: 'USDC',
        tokenMint: '0xddafbb505ad214d7b80b1f830fccc89b60fb7a83',
        amount: '18.651429',
        amountSol: '18.65325',
        dex: 'openocean',
      },
    ],
    why:
      'OpenOceanExchange V2 0x6352a56c (Swapped log 18, referrer 0x39041f1b) with 18.7 xDAI (tx value). ' +
      'The executor 0x8d2b7e55 pays 0.04675 xDAI to the referrer 0x39041f1b (0.25%, internal row; a fee), wraps 18.65325 (Deposit log 8) and deposits it in sDAI (ERC4626 Deposit log 12: 18653250000000000000 WXDAI in, 16029933603776034103 sDAI minted to the executor), then swaps the sDAI in the Balancer V2 Vault (Swap log 14) for 18651429 USDC (0xddafbb50, "USD//C on xDai", 6 dec), sent executor -> wallet (logs 16-17). ' +
      'amount = 18651429 / 1e6; amountSol = WXDAI the route paid into its first venue, 18653250000000000000 / 1e18 (referrer fee excluded). ' +
      'dex: the aggregator called (openocean).',
    venues: [
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        source: 'Balancer V2 Vault (same address on every chain Balancer V2 runs on, Gnosis included; docs.balancer.fi deployment addresses)',
      },
    ],
  },
  {
    hash: '0x81130d4e9695b1e03c5960e51864740a7d6a3c3cab7b708f717dc5f18caad079',
    chain: 'gnosis',
    wallet: '0x70f256dc42e7f6ec5c59466a4eb3e888d4a4dcee',
    trades: [
      {
        side: 'sell',
        token: 'USDC.e',
        tokenMint: '0x2a22f9c3b484c3629090feed35f17ff8f88f76f0',
        amount: '2497.622499',
        amountSol: null,
        dex: 'paraswap',
      },
      {
        side: 'buy',
        token: 'EURe',
        tokenMint: '0xcb444e90d8198415266c6a2724b7900fb12fc56e',
        amount: '2185.911263467705546005',
        amountSol: null,
        dex: 'paraswap',
      },
    ],
    why:
      'ParaSwap Augustus V6.2 0x6a000f20. ' +
      'The wallet sends 2497622499 USDC.e (0x2a22f9c3, Bridged USDC (Gnosis), 6 dec; log 136) to the executor 0x000010036c, which swaps it in the Balancer V2 Vault (Swap log 138) for 2113748962112935917305 sDAI (log 140) and that in pool 0x2de7439f (V3-shaped Swap log 147: amount0 +2113748962112935917305 sDAI, amount1 -2185911263467705546005 EURe) for 2185911263467705546005 EURe paid to Augustus (logs 143/144) and forwarded to the wallet (logs 149/150). ' +
      'No WXDAI leg: token to token, amountSol null. dex: the aggregator called (paraswap). ' +
      "EURe on Gnosis has two contract faces over one ledger since Monerium's v2: the legacy v1 token 0xcb444e90 and the v2 token 0x420ca0f9; every EURe movement after the upgrade emits a Transfer on both (here logs come in pairs). " +
      "The trade is reported once, on 0xcb444e90, the address the venues themselves name (Balancer Swap tokenIn/tokenOut, CoW Trade buyToken, the Curve and Algebra pools' coin); the twin Transfer of 0x420ca0f9 is the same movement, not a second trade.",
    ambiguous:
      'EURe double face: the same movement shows as a Transfer of 0xcb444e90 (v1, legacy) and of 0x420ca0f9 (v2). ' +
      'Reporting it on 0x420ca0f9 instead (the canonical v2) is the other reading; reporting both would double the amount.',
    venues: [
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        source: 'Balancer V2 Vault (same address on every chain Balancer V2 runs on, Gnosis included; docs.balancer.fi deployment addresses)',
      },
    ],
  },
  {
    hash: '0xb65c9b6566bf9d7f6e6313523560e0683f63bfadcadd9e4e8444819f96803401',
    chain: 'gnosis',
    wallet: '0x522ff17c6ab585047174e6d1817b046d38f7c5f9',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0xddafbb505ad214d7b80b1f830fccc89b60fb7a83',
        amount: '1147.097024',
        amountSol: null,
        dex: 'paraswap',
      },
      {
        side: 'buy',
        token: 'EURe',
        tokenMint: '0xcb444e90d8198415266c6a2724b7900fb12fc56e',
        amount: '973.320900476562704102',
        amountSol: null,
        dex: 'paraswap',
      },
    ],
    why:
      'ParaSwap Augustus V6.2 0x6a000f20. ' +
      'The wallet sends 1147097024 USDC (0xddafbb50, 6 dec; log 9) to executor 0x00c600b3, which splits it: 458838809 into Curve 3pool 0x7f90122b (add_liquidity, logs 11-14) for x3CRV, swapped in the Curve EURe/x3CRV pool 0x056c6c5e (TokenExchange log 21) for 389333979274540079113 EURe; and 688258214 converted to USDC.e (0x0392a2f5, logs 28-31), swapped in the Balancer V2 Vault (Swap log 32) for 580065617677979427914 sDAI, then in pools 0xd2233a40 (Swap log 39, 155743463170107249284 EURe) and 0x2de7439f (Swap log 46, 428243458031915375705 EURe). ' +
      'Augustus receives 389333979274540079113 + 155743463170107249284 + 428243458031915375705 = 973320900476562704102 EURe and sends it all to the wallet (logs 48/49). ' +
      'No WXDAI leg: amountSol null. dex: the aggregator called (paraswap). ' +
      "EURe on Gnosis has two contract faces over one ledger since Monerium's v2: the legacy v1 token 0xcb444e90 and the v2 token 0x420ca0f9; every EURe movement after the upgrade emits a Transfer on both (here logs come in pairs). " +
      "The trade is reported once, on 0xcb444e90, the address the venues themselves name (Balancer Swap tokenIn/tokenOut, CoW Trade buyToken, the Curve and Algebra pools' coin); the twin Transfer of 0x420ca0f9 is the same movement, not a second trade.",
    ambiguous:
      'EURe double face: the same movement shows as a Transfer of 0xcb444e90 (v1, legacy) and of 0x420ca0f9 (v2). ' +
      'Reporting it on 0x420ca0f9 instead (the canonical v2) is the other reading; reporting both would double the amount.',
    venues: [
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        source: 'Balancer V2 Vault (same address on every chain Balancer V2 runs on, Gnosis included; docs.balancer.fi deployment addresses)',
      },
    ],
  },
  {
    hash: '0x863e33760f41500e261e8e9a81be18af2dc68f494803c22802e922a4771a91ce',
    chain: 'gnosis',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0xddafbb505ad214d7b80b1f830fccc89b60fb7a83',
        amount: '1000',
        amountSol: '999.881364447403282395',
        dex: 'paraswap',
      },
    ],
    why:
      'ParaSwap Augustus V6.2 0x6a000f20. ' +
      'The wallet sends 1000000000 USDC (0xddafbb50, 6 dec, 1000; log 2) to executor 0x00c600b3, split over three venues that pay WXDAI: 500000000 via Curve 3pool add_liquidity + remove_liquidity_one_coin (logs 4-10) for 499940522333811535599 WXDAI, 400000000 via Curve 3pool exchange (TokenExchange log 15) for 399951618165382998945, and 100000000 via the Balancer V2 Vault (Swap log 17) for 99989223948208747851. ' +
      'Augustus receives 999881364447403282395 WXDAI (logs 12, 16, 19) and sends it all to the wallet as WXDAI (log 20). ' +
      'The wallet receives the wrapped native coin, so this is a sell: amount = 1000000000 / 1e6; amountSol = WXDAI the venues paid, 999881364447403282395 / 1e18. ' +
      'dex: the aggregator called (paraswap).',
    venues: [
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        source: 'Balancer V2 Vault (same address on every chain Balancer V2 runs on, Gnosis included; docs.balancer.fi deployment addresses)',
      },
    ],
  },
  {
    hash: '0xb26c5209cd2f2f68a8e35468099b3926037566c59dfafc399a94ec8525786f6c',
    chain: 'gnosis',
    wallet: '0x7904667c340601aab73939372c016dc5102732a2',
    trades: [
      {
        side: 'buy',
        token: 'EURe',
        tokenMint: '0xcb444e90d8198415266c6a2724b7900fb12fc56e',
        amount: '426.547243238649316205',
        amountSol: '500',
        dex: 'cow',
      },
    ],
    why:
      'CoW settlement (solver 0x6bf97afe, Settlement log 88). ' +
      "Trade log 65: owner 0xba3cb449bd2b4adddbc894d8697f5170800eadec is CoW's EthFlow contract, so this is an ETH-flow order: the EthFlow contract wraps 500 xDAI (Deposit log 63) and sells 500000000000000000000 WXDAI (feeAmount 0) for 426547243238649316205 EURe (buyToken 0xcb444e90), paid by the settlement to the receiver 0x7904667c (logs 86/87). " +
      'The solver routed WXDAI -> sDAI (ERC4626 Deposit log 69) -> EURe (pools 0x2de7439f and 0xd2233a40, Swap logs 77, 83). ' +
      'A buy of the wallet that placed the order: amount = 426547243238649316205 / 1e18; amountSol = sellAmount + feeAmount = 500 xDAI. dex cow. ' +
      "EURe on Gnosis has two contract faces over one ledger since Monerium's v2: the legacy v1 token 0xcb444e90 and the v2 token 0x420ca0f9; every EURe movement after the upgrade emits a Transfer on both (here logs come in pairs). " +
      "The trade is reported once, on 0xcb444e90, the address the venues themselves name (Balancer Swap tokenIn/tokenOut, CoW Trade buyToken, the Curve and Algebra pools' coin); the twin Transfer of 0x420ca0f9 is the same movement, not a second trade.",
    ambiguous:
      "The placer is the `sender` of EthFlow's OrderPlacement event, which is not in this receipt; the wallet is taken to be the receiver 0x7904667c (rotki's test of this transaction uses 0x7904667c as the user's account). " +
      'EURe double face: the same movement shows as a Transfer of 0xcb444e90 (v1, legacy) and of 0x420ca0f9 (v2). ' +
      'Reporting it on 0x420ca0f9 instead (the canonical v2) is the other reading; reporting both would double the amount.',
  },
  {
    hash: '0x47321dcb43441dfb6295a9e34a2591fba26a15e557977e4d92460a3205f71459',
    chain: 'gnosis',
    wallet: '0x6d983700980dd4b559ab8e932d1f1d96bf677248',
    trades: [
      {
        side: 'buy',
        token: 'WETH',
        tokenMint: '0x6a023ccd1ff6f2045c3309768ead9e68f978f6e1',
        amount: '0.028538349974533588',
        amountSol: '57.062317629971433046',
        dex: 'balancer-v2',
      },
    ],
    why:
      'batchSwap sent straight to the Balancer V2 Vault 0xba122222. ' +
      'Two paths: WXDAI -> GNO -> wstETH -> WETH (Swap logs 50, 51, 53: 14265579407492858261 WXDAI in, 7118501286968560 WETH out) and WXDAI -> staBAL3 -> WETH (Swap logs 56, 57: 42796738222478574785 WXDAI in, 21419848687565028 WETH out). ' +
      'The wallet pays 57062317629971433046 WXDAI (log 58) and receives 28538349974533588 WETH (bridged WETH, 18 dec; log 59). ' +
      'The WXDAI side is the native side (Balancer V2 rule). ' +
      'amount = 28538349974533588 / 1e18; amountSol = 14265579407492858261 + 42796738222478574785 = 57062317629971433046 / 1e18. dex balancer-v2.',
    venues: [
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        source: 'Balancer V2 Vault (same address on every chain Balancer V2 runs on, Gnosis included; docs.balancer.fi deployment addresses)',
      },
    ],
  },
  {
    hash: '0x44c68c421b29d00b3c294d3f635dc41e900b9b97d862f1dd718df672d231f5d5',
    chain: 'gnosis',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [
      {
        side: 'sell',
        token: 'COW',
        tokenMint: '0x177127622c4a00f3d409b75571e12cb3c8973d3c',
        amount: '21.28020167239588353',
        amountSol: null,
        dex: 'lifi',
      },
      {
        side: 'buy',
        token: 'wstETH',
        tokenMint: '0x6c76971f98945ae98dd7d4dfca8711ebea946ea6',
        amount: '0.001282759266331817',
        amountSol: null,
        dex: 'lifi',
      },
    ],
    why:
      "Sent to LI.FI's Permit2Proxy 0x89c6340b1a1f4b25d36cd8b063d49045caf3f818 (integrator jumper.exchange), which passes the wallet's 21280201672395883530 COW (18 dec; log 46) to the LI.FI Diamond 0x1231deb6 (log 48) and on to executor 0xe578184b (log 49) of the DEX aggregator whose guard 0xc87de04e emits AggregatedTrade (log 79). " +
      'Three paths: COW -> WETH (Swapr V2 pair 0x8028457e) -> wstETH (pool 0xa8be29b7, 657609067551512); COW -> GNO (Swapr V2 pair 0xdbf14bce) -> wstETH (Uniswap V3 pool 0x46f2da8a, 357768277124724); COW -> WBNB -> ALBC -> WBTC (Honeyswap pairs 0x8e27a951, 0x6bf629fb, 0x21c210c5) -> wstETH (Uniswap V3 pool 0x889492fd, 267381921655581). ' +
      'The Diamond receives 1282759266331817 wstETH and sends it all to the wallet (log 80); AssetSwapped log 81 agrees. No WXDAI leg: token to token, amountSol null. ' +
      'dex: the aggregator the transaction called (LI.FI).',
    ambiguous:
      "decisions.md's slug list does not name LI.FI. " +
      'Read as a front end forwarding to another aggregator (like MetaMask Swaps), the slug would be that of the inner aggregator (the guard 0xc87de04e, labelled Nordstern in public labels); read as neither, the venue that delivered the larger share of wstETH (pool 0xa8be29b7) or took the larger share of COW (Swapr V2 pair 0x8028457e).',
    venues: [
      {
        address: '0x8028457e452d7221db69b1e0563aa600a059fab1',
        kind: 'v2',
        factory: '0x5d48c95adffd4b40c1aaadc4e08fc44117e02179',
        token0: '0x177127622c4a00f3d409b75571e12cb3c8973d3c',
        token1: '0x6a023ccd1ff6f2045c3309768ead9e68f978f6e1',
        source:
          'CREATE2(Swapr V2 (DXswap) factory 0x5d48c95a..., keccak(token0 ++ token1), init code hash 0xd306a548755b9295ee49cc729e13ca4a45e00199bbd890fa146da43a50571776) equals the pool address',
      },
      {
        address: '0xdbf14bce36f661b29f6c8318a1d8944650c73f38',
        kind: 'v2',
        factory: '0x5d48c95adffd4b40c1aaadc4e08fc44117e02179',
        token0: '0x177127622c4a00f3d409b75571e12cb3c8973d3c',
        token1: '0x9c58bacc331c9aa871afd802db6379a98e80cedb',
        source: 'CREATE2 with the Swapr V2 factory and init code hash above',
      },
      {
        address: '0x8e27a9512bba4978d1597cceb3bd0865cc0f65aa',
        kind: 'v2',
        factory: '0xa818b4f111ccac7aa31d0bcc0806d64f2e0737d7',
        token0: '0x177127622c4a00f3d409b75571e12cb3c8973d3c',
        token1: '0xca8d20f3e0144a72c6b5d576e9bd3fd8557e2b04',
        source:
          'CREATE2(Honeyswap factory 0xa818b4f1..., keccak(token0 ++ token1), init code hash 0x3f88503e8580ab941773b59034fb4b2a63e86dbc031b3633a925533ad3ed2b93) equals the pool address',
      },
      {
        address: '0x46f2da8a69a150390a87db78e7aad8572c564963',
        kind: 'v3',
        factory: '0xe32f7dd7e3f098d518ff19a22d5f028e076489b1',
        token0: '0x6c76971f98945ae98dd7d4dfca8711ebea946ea6',
        token1: '0x9c58bacc331c9aa871afd802db6379a98e80cedb',
        fee: 500,
        source:
          'CREATE2(Uniswap V3 factory on Gnosis 0xe32f7dd7..., keccak(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
      {
        address: '0x889492fd3d11792d6802a4995a9907379fcf9953',
        kind: 'v3',
        factory: '0xe32f7dd7e3f098d518ff19a22d5f028e076489b1',
        token0: '0x6c76971f98945ae98dd7d4dfca8711ebea946ea6',
        token1: '0x8e5bbbb09ed1ebde8674cda39a0c169401db4252',
        fee: 500,
        source: 'CREATE2 with the Gnosis Uniswap V3 factory, fee 500',
      },
    ],
  },
  {
    hash: '0xbe029b6a84a3f310ca8bb692225c4a2b19a47b9a7f053bfaa765738c7592143f',
    chain: 'gnosis',
    wallet: '0x98e393228a1c69f8631c5a7278d83a1599165326',
    trades: [
      {
        side: 'buy',
        token: 'EURe',
        tokenMint: '0xcb444e90d8198415266c6a2724b7900fb12fc56e',
        amount: '1003.92719024870398872',
        amountSol: '1156',
        dex: 'paraswap',
      },
    ],
    why:
      'ParaSwap Augustus V6.2 0x6a000f20 with 1156 xDAI (tx value). ' +
      'Executor 0x006d0e0d wraps it (Deposit log 30) and pays 1156000000000000000000 WXDAI (logs 31-32) into Curve 3pool 0x7f90122b (add_liquidity, log 34) for 1142939968741086804515 x3CRV, swapped in the Curve EURe/x3CRV pool 0x056c6c5e (TokenExchange log 39) for 1003927190248703988720 EURe, which goes executor -> Augustus -> wallet (logs 41-48, each as the EURe pair of Transfers). ' +
      'amount = 1003927190248703988720 / 1e18; amountSol = WXDAI paid into the first venue, 1156. dex: the aggregator called (paraswap). ' +
      "EURe on Gnosis has two contract faces over one ledger since Monerium's v2: the legacy v1 token 0xcb444e90 and the v2 token 0x420ca0f9; every EURe movement after the upgrade emits a Transfer on both (here logs come in pairs). " +
      "The trade is reported once, on 0xcb444e90, the address the venues themselves name (Balancer Swap tokenIn/tokenOut, CoW Trade buyToken, the Curve and Algebra pools' coin); the twin Transfer of 0x420ca0f9 is the same movement, not a second trade.",
    ambiguous:
      'EURe double face: the same movement shows as a Transfer of 0xcb444e90 (v1, legacy) and of 0x420ca0f9 (v2). ' +
      'Reporting it on 0x420ca0f9 instead (the canonical v2) is the other reading; reporting both would double the amount.',
  },
  {
    hash: '0xd5c9011e2edd8b724eb3f0a691f5657eb7adb0d943be01b54b52a22b82df7062',
    chain: 'scroll',
    wallet: '0x8c6270bb0d3d95dad8581d6e9795bb7089a34123',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x06efdbff2a14a7c8e15944d1f4a48f9f95f663a4',
        amount: '327.431697',
        amountSol: '0.109956490224557287',
        dex: 'kyberswap',
      },
    ],
    why:
      'KyberSwap MetaAggregationRouterV2 0x6131b5fae19ea4f9d964eac0408e4408b66337b5 (Swapped log 39). ' +
      "The wallet sends 327431697 USDC (Scroll USDC 0x06efdbff, 6 dec; log 32) to Kyber's executor 0xf40442e1, which pays it into Uniswap V3 pool 0x813df550 (log 34; Swap log 35) for 109956490224557287 WETH (log 33), unwraps it (Withdrawal log 38) and sends 109956490224557286 wei ETH to the wallet (internal row), keeping 1 wei. " +
      'amount = 327431697 / 1e6; amountSol = WETH paid by the pool, 109956490224557287 / 1e18 (the 1 wei kept by the executor is not part of it). ' +
      'dex: the aggregator called (kyberswap).',
    venues: [
      {
        address: '0x813df550a32d4a9d42010d057386429ad2328ed9',
        kind: 'v3',
        factory: '0x70c62c8b8e801124a4aa81ce07b637a3e83cb919',
        token0: '0x06efdbff2a14a7c8e15944d1f4a48f9f95f663a4',
        token1: '0x5300000000000000000000000000000000000004',
        fee: 500,
        source:
          'CREATE2(Uniswap V3 factory on Scroll 0x70c62c8b..., keccak(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) equals the pool address',
      },
    ],
  },
  {
    hash: '0x442e968d8a5c6adb81bf087041ed3dd19dc2f20725044c7f9c435bf6234d9992',
    chain: 'scroll',
    wallet: '0x0a32d140700edb28165c88d1000a910c247dfdca',
    trades: [
      {
        side: 'sell',
        token: 'wstETH',
        tokenMint: '0xf610a9dfb7c89644979b4a0f27063e9e7d7cda32',
        amount: '0.042810448486080933',
        amountSol: '0.050193226744779576',
        dex: 'odos',
      },
      {
        side: 'buy',
        token: 'wrsETH',
        tokenMint: '0xa25b25548b4c98b0c7d3d27dca5d5ca743d68b7f',
        amount: '0.049288894534015152',
        amountSol: '0.050193226744779576',
        dex: 'odos',
      },
    ],
    why:
      'Odos Router V2 on Scroll 0xbfe03c9e20a9fc0b37de01a172f207004935e0b1 (Odos Swap log 11). ' +
      'The wallet sends 42810448486080933 wstETH (18 dec; log 0) to the Odos executor 0x2b8b3f09, which pays it to the SyncSwap vault 0x7160570b (log 1) for classic pool 0xc21b7961 (V2-shaped Swap log 2, amount0Out 50193226744779576); the vault wraps 50193226744779576 wei (WETH mint/Deposit logs 3-4) and pays the WETH to the executor (log 5), which pays it into Uniswap V3 pool 0x2a729550 (log 8; Swap log 9) for 49288894534015152 wrsETH (tokens.json: 18 dec) sent to the router (log 7) and on to the wallet (log 10). ' +
      'Token to token with a native middle leg (WETH is the wrapped native on Scroll): both trades take it, 50193226744779576 / 1e18 (the sell venue paid out and the buy venue took in the same amount). ' +
      'dex: the aggregator called (odos).',
    venues: [
      {
        address: '0x2a729550aef8e5b4f2895bb61e65ef4b30bc2036',
        kind: 'v3',
        factory: '0x70c62c8b8e801124a4aa81ce07b637a3e83cb919',
        token0: '0x5300000000000000000000000000000000000004',
        token1: '0xa25b25548b4c98b0c7d3d27dca5d5ca743d68b7f',
        fee: 100,
        source: 'CREATE2 with the Scroll Uniswap V3 factory, fee 100',
      },
    ],
  },
  {
    hash: '0xbf1fc862b5c4fa9f828a7a8b79acf9a7b8b7691c13127fd6d0a2d012d036ed9e',
    chain: 'hyperevm',
    wallet: '0x2e0940a7934a11a2ba03a8297a0e72b047196235',
    trades: [
      {
        side: 'buy',
        token: 'UXPL',
        tokenMint: '0x33af3c2540ba72054e044efe504867b39ae421f5',
        amount: '35.321460680290600636',
        amountSol: '1',
        dex: 'prjx',
      },
    ],
    why:
      "exactInput on Project X's SwapRouter 0x1ebdfc75ffe3ba3de61e7138a3e8706ac841af9b (a protocol router) with 1 HYPE (tx value). " +
      'The router wraps it (WHYPE Deposit log 26) and pays 1000000000000000000 WHYPE into pool 0xbd19e19e (log 27; Swap log 28) for 43048691 USD₮0 (6 dec; log 25), which it pays into pool 0x9e130796 (log 30; Swap log 31) for 35321460680290600636 UXPL (tokens.json: 18 dec) sent straight to the wallet (log 29). ' +
      'Both pools are Project X V3 pools by CREATE2. amount = 35321460680290600636 / 1e18; amountSol = WHYPE into the first pool, 1 HYPE. ' +
      'dex: the venue that delivered UXPL, Project X (slug prjx).',
    venues: [
      {
        address: '0xbd19e19e4b70eb7f248695a42208bc1edbbfb57d',
        kind: 'v3',
        factory: '0xff7b3e8c00e57ea31477c32a5b52a58eea47b072',
        token0: '0x5555555555555555555555555555555555555555',
        token1: '0xb8ce59fc3717ada4c02eadf9682a9e934f625ebb',
        fee: 500,
        source:
          'CREATE2(Project X factory 0xff7b3e8c00e57ea31477c32a5b52a58eea47b072, keccak(abi.encode(token0, token1, 500)), init code hash 0x7ef2b01a451cbf890790278981756372e549443802ece149dc0b592cbc114ee9; 0x-settler src/core/univ3forks/PrjxV3.sol) equals the pool address',
      },
      {
        address: '0x9e13079623f01ea445da6679b8c81d71d65cb0af',
        kind: 'v3',
        factory: '0xff7b3e8c00e57ea31477c32a5b52a58eea47b072',
        token0: '0x33af3c2540ba72054e044efe504867b39ae421f5',
        token1: '0xb8ce59fc3717ada4c02eadf9682a9e934f625ebb',
        fee: 3000,
        source:
          'CREATE2(Project X factory 0xff7b3e8c00e57ea31477c32a5b52a58eea47b072, keccak(abi.encode(token0, token1, 3000)), init code hash 0x7ef2b01a451cbf890790278981756372e549443802ece149dc0b592cbc114ee9; 0x-settler src/core/univ3forks/PrjxV3.sol) equals the pool address',
      },
    ],
  },
  {
    hash: '0x7ab6a00b4d4c4e7b5c9528595c76073f19292ae2fb00d92fbbff1df0bae7f523',
    chain: 'hyperevm',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [
      {
        side: 'buy',
        token: 'kHYPE',
        tokenMint: '0xfd739d4e423301ce9385c1fb8850539d657c296d',
        amount: '9.960716400101319643',
        amountSol: '10',
        dex: 'enso',
      },
    ],
    why:
      'Sent with 10 HYPE to Enso Router V2 0xf75584ef6673ad213a685a1b58cc0330b8ea22cf, which passes it to EnsoShortcuts 0x4fe93ebc (ShortcutExecuted log 12) and its wallet 0xbedfac74, which calls the KyberSwap router 0x6131b5fa (Swapped log 8, client "Enso"); the HYPE goes router -> executor 0x63242a4e (internal rows), is wrapped (Deposit log 2) and paid into V3-shaped pool 0x5a716e04 (log 4; Swap log 5) for 9960716400101319643 kHYPE (Kinetiq Staked HYPE, 18 dec; log 3), which goes executor -> 0xbedfac74 -> wallet (logs 7, 11). ' +
      'amount = 9960716400101319643 / 1e18; amountSol = WHYPE into the pool, 10 HYPE. dex: the aggregator the transaction called (Enso).',
    ambiguous:
      "decisions.md's slug list does not name Enso. " +
      "Enso's router is the contract the transaction called and it composed the route, so it is read as the aggregator called ('enso'); read as a front end that forwards to an aggregator (like MetaMask Swaps), the slug would be the inner aggregator's (the route passes through KyberSwap's router: 'kyberswap').",
  },
  {
    hash: '0x773daa37d6035cd7e991acc49776e5a02a4cfd71c94f5c3f0c113096660e679e',
    chain: 'hyperevm',
    wallet: '0xfb3a939cb06eef36e1ced48bdba1fcee177ac7f4',
    trades: [
      {
        side: 'buy',
        token: 'kHYPE',
        tokenMint: '0xfd739d4e423301ce9385c1fb8850539d657c296d',
        amount: '4.980253651738044784',
        amountSol: '5',
        dex: 'enso',
      },
    ],
    why:
      "Sent with 5 HYPE to Enso Router V2 0xf75584ef (ShortcutExecuted log 30 from EnsoShortcuts 0x4fe93ebc); Enso's wallet 0xbedfac74 calls the Ooga Booga router 0x5fbd1b5aa82d09359c05428647871fe9add3f411 (its Swap event log 28: 5 HYPE in, 4980253651738044784 kHYPE out; fee module 0x53a8ec5a log 26 reports no fee), whose executor 0x65d1ea56 wraps the HYPE (Deposit log 20) and pays 5000000000000000000 WHYPE into V3-shaped pool 0x7a37621a (log 22; Swap log 24) for 4980253651738044784 kHYPE (log 21), sent executor -> Ooga Booga router -> 0xbedfac74 -> wallet (logs 25, 27, 29). " +
      'amount = 4980253651738044784 / 1e18; amountSol = WHYPE into the pool, 5 HYPE. dex: the aggregator the transaction called (Enso).',
    ambiguous:
      "decisions.md's slug list does not name Enso. " +
      "Enso's router is the contract the transaction called and it composed the route, so it is read as the aggregator called ('enso'); read as a front end that forwards to an aggregator (like MetaMask Swaps), the slug would be the inner aggregator's (the route passes through the Ooga Booga router: 'oogabooga').",
  },
];

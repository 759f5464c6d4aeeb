import type { MainnetGolden } from './types.js';

/**
 * Expected trades for the arbitrum and optimism transactions of the shared mainnet set
 * (../shared/fixtures/evm-mainnet/MANIFEST.tsv, in MANIFEST order), derived by hand from each
 * transaction's logs under decisions.md ("Trades", "EVM venues beyond the Uniswap V2/V3 shape",
 * "Real routes on EVM"), never from the decoder's output. Neither chain is built in: the venue and
 * aggregator slugs used here (velodrome, velodrome-v1, camelot-v2/v3, magpie, firebird, ...) assume the
 * EVM_CHAINS_FILE entries proposed with this file; every pool's factory was established by
 * recomputing its CREATE2 address (see each venue's source).
 */
export const GOLDEN: MainnetGolden[] = [
  {
    hash: '0xb1f65779afe9b92edd791af3b95ea36c46d6a6e8f8cc60f4740bb11b79993a92',
    chain: 'arbitrum',
    wallet: '0x9fae1b2be0a8d7e64780fd740f8ad05188e8170a',
    trades: [
      {
        side: 'buy',
        token: 'WBTC',
        tokenMint: '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f',
        amount: '0.00454144',
        amountSol: '0.071985413648931875',
        dex: 'uniswap-v3',
      },
    ],
    why: "Sent to LlamaZip's Arbitrum router 0x5279ebc4… (rotki/rotki llamazip decoder lists it; LlamaZip is a front end that swaps on Uniswap V3 pools itself, not an aggregator, so each leg takes the pool's venue). Log 1: the wallet pays 71985413648931875 WETH straight into pool 0x2f5e87c9 (V3 Swap log 3: amount1 +71985413648931875) — WETH given, so a buy with amountSol 0.071985413648931875. Log 0: the pool pays 454144 WBTC (8 decimals) to the router; log 4: the router passes all 454144 on to the wallet (pass-through) → amount 0.00454144. Pool 0x2f5e87c9 = CREATE2 of UniswapV3Factory for WBTC/WETH fee 500 → uniswap-v3.",
    venues: [
      {
        address: '0x2f5e87c9312fa29aed5c179e456625d79015299c',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x2f5e87c9312fa29aed5c179e456625d79015299c',
      },
    ],
  },
  {
    hash: '0x1756eca9ad24e025cec0f9963c93a7a98f85d8603cd4b16bd0accdf3c20d3ff8',
    chain: 'arbitrum',
    wallet: '0x9a852a967b26bff2d025df04cc103a22b4593fe2',
    trades: [
      { side: 'sell', token: 'ARB', tokenMint: '0x912ce59144191c1204e64559fe8253a0e49e6548', amount: '150', amountSol: '0.079565712786565097', dex: '1inch' },
    ],
    why: "Called 1inch AggregationRouterV5 0x1111111254eeb25477b68fb85ed929f73a960582 (same address on every chain, 1inch deployment list; built in on eth) → 1inch. Log 1: the wallet gives 150000000000000000000 ARB (18 dec) to 1inch's executor 0x95e2769a; it sends 450000000000000000 to 0x352a3666 (log 3: a fee taken from the input, still part of what left the wallet → amount 150) and 149550000000000000000 to Uniswap V3 ARB/USDT pool 0xdb9f3540 (log 5, Swap log 6), which pays 130453809 USDT to Trader Joe Liquidity Book pair 0xd387c40a (log 4; LB Swap log 7, topic 0xad7d6f97 = Swap(address,address,uint24,bytes32,bytes32,uint24,bytes32,bytes32)); the LB pair pays 79565712786565097 WETH to the executor (log 8), which unwraps it (log 9: Arbitrum WETH burns with a Transfer to 0x0, no Withdrawal) and the ETH goes executor → 1inch router → wallet (internal rows, 79565712786565097 each). USDT is an intermediate hop. amountSol = WETH paid out by the venue that ended the route = 0.079565712786565097.",
    venues: [
      {
        address: '0xdb9f3540955b3c5df246dba83b96727fcb3424a1',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        token1: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xdb9f3540955b3c5df246dba83b96727fcb3424a1',
      },
      {
        address: '0xd387c40a72703b38a5181573724bcaf2ce6038a5',
        kind: 'other',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
        source:
          'Trader Joe Liquidity Book pair WETH/USDT (its LB Swap event, log 7); factory not established; behind the 1inch route, so it does not decide the slug',
      },
    ],
  },
  {
    hash: '0x91733fb94bbb2de9d7fccfd87e41d5498245b74583902ddf02debe8c70a44d7e',
    chain: 'arbitrum',
    wallet: '0x517725caf62fca000c0ea950497116933f813e38',
    trades: [
      { side: 'sell', token: 'USDC', tokenMint: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', amount: '45.3', amountSol: '0.020630400240849773', dex: '1inch' },
    ],
    why: "Sent to MetaMask Swaps' router 0x9dda6ef3… (rotki/rotki metamask constants: router 0x9dDA6Ef3…, Arbitrum fee receiver 0xeAb40cDd…), a front end. Log 0: the wallet gives 45300000 USDC (6 dec) to MetaMask's spender 0x0a2854fb, which keeps 396375 as MetaMask's fee (log 8, to 0xeab40cdd: commission from the input, part of the amount) and sends 44903625 to executor 0xe37e799d (log 1) → Camelot V3 (Algebra) WETH/USDC pool 0xb1026b8e (log 4; Swap log 6 amount1 +44903625; log 5 is the pool's own community-fee skim of 7887 USDC to 0x58095979, inside the venue). Log 3: the pool pays 20630400240849773 WETH to the executor, log 7 unwraps it, and the internal rows carry 20630400240849773 wei executor → 1inch AggregationRouterV5 0x1111111254eeb… → 0x0a2854fb → wallet: the route passes through 1inch → 1inch. amount 45.3 (all that left the wallet), amountSol = WETH out of the pool 0.020630400240849773 (= what reached the wallet).",
    ambiguous:
      "1inch shows only in the native ETH hop through its router (internal transactions / call trace); the logs alone show MetaMask's router, an executor and a Camelot V3 pool. decisions.md: a front end that forwards to an aggregator takes the aggregator's slug, and an aggregator the route passes through names it. A decoder without the trace could only name the venue (camelot-v3 if configured, else unknown-v3-fork).",
    venues: [
      {
        address: '0xb1026b8e7276e7ac75410f1fcbbe21796e8f7526',
        kind: 'v3',
        factory: '0x1a3c9b1d2f0529d97f2afc5136cc23e58f1fd35b',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        source:
          "Camelot V3 (Algebra) pool: CREATE2(AlgebraPoolDeployer 0x6dd3fb9653b10e806650f107c3b5a0a6ff974f65, salt keccak256(abi.encode(token0, token1)), init code hash 0x6c1bebd370ba84753516bc1393c0d0a6c645856da55f5393ac8ab3d6dbc861d3) = 0xb1026b8e7276e7ac75410f1fcbbe21796e8f7526; emits Uniswap V3's Swap event and Fee(uint16,uint16)",
      },
    ],
  },
  {
    hash: '0x5969392c45eaf7e6e3453e2405afb23eb2424e8e4ba2d14e38943fdcdab55d5f',
    chain: 'arbitrum',
    wallet: '0x22e798f9440f563b92aae24e94c75dfa499e3d3e',
    trades: [
      { side: 'sell', token: 'USDC', tokenMint: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8', amount: '14964.074104', amountSol: null, dex: 'unknown' },
      { side: 'buy', token: 'LINK', tokenMint: '0xf97f4df75117a78c1a5a0dbb814af92458539fb4', amount: '947.4907214801', amountSol: null, dex: 'unknown' },
    ],
    why: "Sent to GMX V1's Router 0xabbc5f99… (gmx-io/gmx-contracts scripts: Vault 0x489ee077…, Router 0xaBBc5F99…), GMX's own router, not an aggregator. Log 0: the wallet gives 14964074104 bridged USDC.e (0xff970a61…, symbol() 'USDC', 6 dec) straight to the GMX Vault 0x489ee077; log 7: the Vault pays 947490721480100000000 LINK (18 dec) to the wallet. The Vault's Swap event (log 8, Swap(address,address,address,uint256,uint256,uint256,uint256); the MANIFEST calls this shape 'Balancer V3 Swap') gives account = the wallet, amountIn 14964074104, amountOut 948534109000000000000, amountOutAfterFees 947490721480100000000, feeBasisPoints 11 — the fee is inside the venue. The Vault takes one asset and gives another: a venue that the slug table does not name → unknown. No native leg → amountSol null on both; sell before buy.",
    venues: [
      {
        address: '0x489ee077994b6658eafa855c308275ead8097c4a',
        kind: 'other',
        token0: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        token1: '0xf97f4df75117a78c1a5a0dbb814af92458539fb4',
        source: 'GMX V1 Vault on Arbitrum (gmx-io/gmx-contracts scripts); not a V2/V3/V4/Balancer shape; token0/token1 here are tokenIn/tokenOut',
      },
    ],
  },
  {
    hash: '0x92a422b746cc1ce14b795e5fc2239cdf3146482a5bc3c5278dccb1c3ccccdc17',
    chain: 'arbitrum',
    wallet: '0xfee285cf79719fc3552c5f7c540554f09dadad21',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        amount: '0.145421',
        amountSol: '0.000057531692024488',
        dex: 'paraswap',
      },
    ],
    why: "Called ParaSwap Augustus V5 0xdef171fe… → paraswap (BoughtV3 log 32: an exact-out order). Log 22: the wallet gives 145421 USDC.e to Augustus; log 26: 145419 go into Camelot V3 (Algebra) WETH/USDC.e pool 0x521aa84a (Swap log 29 amount1 +145419; log 28 the pool's community-fee skim of 15); log 31: the 2 left over go from Augustus to 0xa7465ccd (ParaSwap's fee — taken from the input, so amount = 0.145421). Log 25: the pool pays 57531692024488 WETH to Augustus, log 30 unwraps it, the internal rows pay 57531692024488 wei to the wallet → amountSol 0.000057531692024488.",
    venues: [
      {
        address: '0x521aa84ab3fcc4c05cabac24dc3682339887b126',
        kind: 'v3',
        factory: '0x1a3c9b1d2f0529d97f2afc5136cc23e58f1fd35b',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        source:
          "Camelot V3 (Algebra) pool: CREATE2(AlgebraPoolDeployer 0x6dd3fb9653b10e806650f107c3b5a0a6ff974f65, salt keccak256(abi.encode(token0, token1)), init code hash 0x6c1bebd370ba84753516bc1393c0d0a6c645856da55f5393ac8ab3d6dbc861d3) = 0x521aa84ab3fcc4c05cabac24dc3682339887b126; emits Uniswap V3's Swap event and Fee(uint16,uint16)",
      },
    ],
  },
  {
    hash: '0x355c18ab70fb5d17098b6bc8fd527ce00f0b25c8220d6fe29522a1fb64b711bc',
    chain: 'arbitrum',
    wallet: '0xf06cc31757760cc9b8235c868ed90789f9c1e883',
    trades: [
      { side: 'sell', token: 'USDC', tokenMint: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', amount: '50000', amountSol: '13.759767230758937563', dex: '0x' },
      {
        side: 'buy',
        token: 'wstETH',
        tokenMint: '0x5979d7b546e38e414f7e9822514be443a4800529',
        amount: '11.88137754443033075',
        amountSol: '13.759767230758937563',
        dex: '0x',
      },
    ],
    why: "Relayer 0x0a1ac7d3 sent a 0x Exchange Proxy (0xdef1c0de…) meta-transaction: MetaTransactionExecuted (log 20) names signer 0xf06cc317… for transformERC20 (selector 0x415565b0), so the signer, the order's owner, is the trader; the relayer has no balance change. Logs 4-5: the signer pays 79726078 USDC to 0x38f5e5b4 (the meta-transaction fee, taken in the sell token) and 49920273922 USDC to 0x's flash wallet 0xdb6f1920 → amount 50000 (commission from the input is part of what left the wallet). Route: Uniswap V3 USDC/USDC.e pool 0x8e295789 (fee 100, Swap log 8) → 49915476101 USDC.e → Uniswap V3 WETH/USDC.e pool 0xc31e54c7 (fee 500, Swap log 11) → log 9: 13759767230758937563 WETH to the flash wallet → Balancer V2 Vault (Swap log 13, pool 0x9791d590…0498: amountIn 13759767230758937563 WETH, amountOut 11881377544430330750 wstETH; log 14 WETH in, log 16 wstETH out) → log 18: all 11881377544430330750 wstETH (18 dec) to the signer. The WETH middle leg 13.759767230758937563 is what the USDC side's venue paid out and what the wstETH side's venue took in → amountSol of both legs. TransformedERC20 (log 19) confirms 49920273922 in / 11881377544430330750 out. dex 0x (the transaction called 0x's Exchange Proxy).",
    ambiguous:
      "(a) Wallet: decisions.md names CoW and UniswapX owners as the exception to 'wallet = sender'; GOLDEN.md and the fixture README count a 0x meta-transaction as a settlement whose owner is the signer, which this entry follows (wallet = sender 0x0a1ac7d3 would give no trade). (b) amountSol: decisions.md nulls it for settlement orders whose solver picks the route (CoW, UniswapX); here the signer signed the exact transformERC20 route, so its WETH middle leg is used; reading every settlement as token-for-token would give null. (c) amount 50000 includes the 79.726078 USDC meta-transaction fee; without it 49920.273922.",
    venues: [
      {
        address: '0x8e295789c9465487074a65b1ae9ce0351172393f',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        token1: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x8e295789c9465487074a65b1ae9ce0351172393f',
      },
      {
        address: '0xc31e54c7a869b9fcbecc14363cf510d1c41fa443',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xc31e54c7a869b9fcbecc14363cf510d1c41fa443',
      },
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0x5979d7b546e38e414f7e9822514be443a4800529',
        source:
          "Balancer V2 Vault (same address on every chain it runs on); pool id 0x9791d590788598535278552eecd4b211bfc790cb000000000000000000000498; token0/token1 here are the Swap's tokenIn/tokenOut",
      },
    ],
  },
  {
    hash: '0x8fe6f4f80e34eebc8e61ad638d57fde3ec4a975817ee08ab209562d00a6aa217',
    chain: 'arbitrum',
    wallet: '0xeeb775c27a0d476b145d2e3b4dcd10a0a5bd064f',
    trades: [
      {
        side: 'buy',
        token: 'ARB',
        tokenMint: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        amount: '416.708088668961143612',
        amountSol: '0.21',
        dex: 'uniswap-v3',
      },
    ],
    why: "Universal Router 0x3fc91a3a… (Uniswap's own router: not an aggregator, each leg takes its pool's venue). The transaction's value 210000000000000000 wei is wrapped (log 7: WETH minted from 0x0 — Arbitrum's WETH emits no Deposit) and paid into pool 0xc6f78049 (log 9; Swap log 10 amount0 +210000000000000000) → amountSol 0.21; log 8: the pool pays 416708088668961143612 ARB (18 dec) straight to the wallet. Pool = CREATE2 of UniswapV3Factory for WETH/ARB fee 500 → uniswap-v3.",
    venues: [
      {
        address: '0xc6f780497a95e246eb9449f5e4770916dcd6396a',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xc6f780497a95e246eb9449f5e4770916dcd6396a',
      },
    ],
  },
  {
    hash: '0xc19c7e1e0af7819b1922a287d034540e8f8dba4e065317d6483d48ac27e727e9',
    chain: 'arbitrum',
    wallet: '0xbe6660fbe96b61b72bf35ffab40eb2ca886a7f85',
    trades: [],
    why: "Negative: WETH.withdraw (selector 0x2e1a7d4d) sent to WETH itself. Log 13 burns 520000000000000 WETH of the wallet (Arbitrum's WETH shows unwrapping as a Transfer to 0x0) and the internal row returns 520000000000000 wei. Unwrapping the native coin is not a trade.",
  },
  {
    hash: '0xbcc690fb11b0a6b0f3b1e5bed6abb5c3e93d5b4855472f94adea824bfa2be6ed',
    chain: 'arbitrum',
    wallet: '0x0e414c1c4780df6c09c2f1070990768d44b70b1d',
    trades: [
      { side: 'sell', token: 'ARB', tokenMint: '0x912ce59144191c1204e64559fe8253a0e49e6548', amount: '1', amountSol: '0.000341509411478616', dex: 'kyberswap' },
      {
        side: 'buy',
        token: 'AIDOGE',
        tokenMint: '0x09e18590e8f76b6cf471b3cd75fe1a1a9d2b2c2b',
        amount: '2693482419.136828',
        amountSol: '0.000341509411478616',
        dex: 'kyberswap',
      },
    ],
    why: "Called KyberSwap's MetaAggregationRouterV2 0x6131b5fa… → kyberswap (Swapped log 49). Log 11: the wallet gives 1000000000000000000 ARB to Kyber's executor 0x11ddd59c → Uniswap V3 ARB/USDC.e pool 0xcda53b1f (fee 500, Swap log 14) → 1029006 USDC.e → pool 0xfc8f5934 (a venue whose event 0x0fe977d6, log 18, is not identified; it takes USDC.e and gives WETH) → log 16: 341509411478616 WETH to the executor → log 40: 341509411478616 WETH into Camelot V3 (Algebra) WETH/AIDOGE pool 0xe726c97a (Swap log 42; log 41 the pool's community-fee skim) → log 39: 2693502639699638 AIDOGE (ArbDoge AI 0x09e18590…, 6 decimals) to the executor, which sends 20220562810 to 0x4f82e73e (log 46, Kyber's fee on the output, announced by log 44) and 2693482419136828 to the wallet (log 48) → amount 2693482419.136828 (net of the platform fee taken from the output). WETH middle leg: 341509411478616 out of the USDC.e venue and into the AIDOGE pool → amountSol 0.000341509411478616 on both legs. Logs 20-38 are AIDOGE's own tax swap-back (the token contract selling 36 of its own tokens through Camelot V2 pairs 0x6a78e84f and 0xa6c5c7d1 for 11699 ARB and distributing it): the token contract trading its own balance, not the wallet's.",
    ambiguous:
      "MANIFEST marks AIDOGE as transfer-taxed; in this transaction the tax machinery shows only as the contract's own swap-back, and the Transfer amounts pool → executor → wallet match the pool's Swap figure, so the wallet's amount is log 48's 2693482419136828.",
    venues: [
      {
        address: '0xcda53b1f66614552f834ceef361a8d12a0b8dad8',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        token1: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xcda53b1f66614552f834ceef361a8d12a0b8dad8',
      },
      {
        address: '0xfc8f5934521df4801c8671ed54e13e3e74aa399f',
        kind: 'other',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        source: 'unidentified venue (event topic 0x0fe977d6…); no CREATE2 match among Uniswap/Pancake/Sushi/Camelot factories',
      },
      {
        address: '0xe726c97afcbbbfcae8dbc21877d184dbb2c11f6d',
        kind: 'v3',
        factory: '0x1a3c9b1d2f0529d97f2afc5136cc23e58f1fd35b',
        token0: '0x09e18590e8f76b6cf471b3cd75fe1a1a9d2b2c2b',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        source:
          "Camelot V3 (Algebra) pool: CREATE2(AlgebraPoolDeployer 0x6dd3fb9653b10e806650f107c3b5a0a6ff974f65, salt keccak256(abi.encode(token0, token1)), init code hash 0x6c1bebd370ba84753516bc1393c0d0a6c645856da55f5393ac8ab3d6dbc861d3) = 0xe726c97afcbbbfcae8dbc21877d184dbb2c11f6d; emits Uniswap V3's Swap event and Fee(uint16,uint16)",
      },
      {
        address: '0x6a78e84fa0edad4d99eb90edc041cdbf85925961',
        kind: 'v2',
        factory: '0x6eccab422d763ac031210895c81787e87b43a652',
        token0: '0x09e18590e8f76b6cf471b3cd75fe1a1a9d2b2c2b',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        source:
          'CREATE2(Camelot V2 factory 0x6eccab422d763ac031210895c81787e87b43a652, salt keccak256(token0 ++ token1), init code hash 0xa856464ae65f7619087bc369daaf7e387dae1e5af69cfa7935850ebf754b04c1) = 0x6a78e84fa0edad4d99eb90edc041cdbf85925961',
      },
      {
        address: '0xa6c5c7d189fa4eb5af8ba34e63dcdd3a635d433f',
        kind: 'v2',
        factory: '0x6eccab422d763ac031210895c81787e87b43a652',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        source:
          'CREATE2(Camelot V2 factory 0x6eccab422d763ac031210895c81787e87b43a652, salt keccak256(token0 ++ token1), init code hash 0xa856464ae65f7619087bc369daaf7e387dae1e5af69cfa7935850ebf754b04c1) = 0xa6c5c7d189fa4eb5af8ba34e63dcdd3a635d433f',
      },
    ],
  },
  {
    hash: '0xbdfe4bfba8932fafed46a0cae44a945088c2496e1ef3c643d315159f900c338b',
    chain: 'arbitrum',
    wallet: '0x706a70067be19bdadbea3600db0626859ff25d74',
    trades: [],
    why: "Complex, a zap into a liquidity position: the wallet gives 100768463 USDC (log 2) to zapper 0x3991ba79, which takes 100768 as a fee (log 3), swaps parts of it through DODO's route proxy (OrderRecord logs 17, 28) on Camelot V2 USDC/USDC.e pair 0xc1ad2395, Camelot V3 DMT/USDC.e pool 0xe4e4aea5 and Uniswap V3 USDC/USDC.e pool 0x8e295789 into DMT and USDC.e, mints Uniswap V3 position NFT 2985371 in DMT/USDC.e pool 0x32271f1f (Mint log 42, IncreaseLiquidity log 44), and sends the NFT (log 46) and 44879191744967 DMT of unused dust (log 48) to the wallet. A liquidity add is not a trade; the swaps are the zapper's, made as part of it.",
    ambiguous:
      'The returned dust (0.000044879191744967 DMT) could be read as a tiny DMT buy against part of the USDC; decisions.md treats liquidity adds as non-trades, so none.',
  },
  {
    hash: '0xab0ca6d2749425e0e45a60dc66daa5059276bf2b97db5939949e24564dff9826',
    chain: 'arbitrum',
    wallet: '0x437ad8a22ceed33cbc4e661f8ef33d57a390d287',
    trades: [
      { side: 'sell', token: 'ARB', tokenMint: '0x912ce59144191c1204e64559fe8253a0e49e6548', amount: '5', amountSol: null, dex: 'odos' },
      { side: 'buy', token: 'USDC', tokenMint: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', amount: '3.797619', amountSol: null, dex: 'odos' },
    ],
    why: "Odos Router V2 on Arbitrum 0xa669e7a0… (docs.odos.xyz contract list; DefiLlama's Odos adapter ODOS_V2_ROUTERS) → odos (Odos Swap log 11). Log 1: 5000000000000000000 ARB wallet → Odos executor 0x9b99e9c6 → V3-shaped ARB/USDC.e pool 0xe3d2f7c0 (Swap log 5) → log 3: 3797663 USDC.e → Algebra-type USDC/USDC.e pool 0xb959e3da (Fee(uint16) log 6, Swap log 9) → log 7: 3797619 USDC to the router → log 10: to the wallet. Token to token with no native leg → amountSol null on both.",
    venues: [
      {
        address: '0xe3d2f7c05b818ac79765329c953ef2427714fb5b',
        kind: 'v3',
        token0: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        token1: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        source:
          'Uniswap-V3-shaped Swap; factory not established (no CREATE2 match among Uniswap V3, PancakeSwap V3, SushiSwap V3 or Camelot V3); the slug is odos regardless',
      },
      {
        address: '0xb959e3dac4d114b1479b80a49e9fdee43ddf71e9',
        kind: 'v3',
        token0: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        token1: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        source: 'Algebra-type pool (Fee(uint16) event, Uniswap-V3-shaped Swap); factory not established; the slug is odos regardless',
      },
    ],
  },
  {
    hash: '0xf9d2cb0f7593181f3a296647205a184f820dcba36273a4e8486cad545ad1bf39',
    chain: 'arbitrum',
    wallet: '0xa716c2ef62b60cf82b8119947030ea7e26a39908',
    trades: [
      {
        side: 'buy',
        token: 'ARB',
        tokenMint: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        amount: '0.487303878224941508',
        amountSol: '0.0001',
        dex: 'uniswap-v3',
      },
    ],
    why: "LlamaZip's Arbitrum router 0x973bf562… (rotki/rotki llamazip decoder; LlamaZip swaps on Uniswap V3 pools itself, so the pool's venue). The transaction's 100000000000000 wei are wrapped (log 1, WETH minted) and paid into pool 0x89a4026e (log 2; Swap log 3 amount0 +100000000000000) → amountSol 0.0001; log 0: the pool pays 487303878224941508 ARB to the router, log 4: the router passes it all to the wallet → amount 0.487303878224941508. Pool = CREATE2 of UniswapV3Factory for WETH/ARB fee 100 → uniswap-v3.",
    venues: [
      {
        address: '0x89a4026e9ade251c67b7fb38054931a39936d9c5',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0x912ce59144191c1204e64559fe8253a0e49e6548',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x89a4026e9ade251c67b7fb38054931a39936d9c5',
      },
    ],
  },
  {
    hash: '0xcca62e6832e2df6f4ff3ca5240069e2d4548dfd23ed8f08c448e4917b916d3df',
    chain: 'arbitrum',
    wallet: '0x706a70067be19bdadbea3600db0626859ff25d74',
    trades: [],
    why: "Complex, a loan repaid from its collateral in Curve's LlamaLend WETH/crvUSD market (controller 0xb5c6082d…, LLAMMA 0x57126764… per Curve's lending API data quoted in rotki's tests). The AMM releases 9999999999999997 WETH of collateral (log 1) to callback 0x61c404b6, which swaps 100000000000000 of it through 1inch AggregationRouterV6 on Curve tricrypto-ng pool 0x96aaf8f6 (TokenExchange log 8) for 312439227969626228 crvUSD; the controller keeps 1086590072845254 crvUSD to repay the debt (log 16) and returns 311352637896780974 crvUSD (log 12) and 9899999999999997 WETH (log 13) to the wallet. The wallet gives nothing in this transaction: a repayment/withdrawal against a loan, with the swap made by the callback contract on the collateral → no trade.",
    ambiguous:
      "One could read the 0.0001 WETH → crvUSD conversion as the wallet's own sell/buy; the wallet never held that WETH, and the swap is part of a loan repayment (decisions.md: not a trade), so none.",
  },
  {
    hash: '0x6f3b9fae41f83f880f21e704962fb01de8f9b8be0e61fe6165c0bca3d8113492',
    chain: 'arbitrum',
    wallet: '0xa99f61aa6ba5665f62935f7d05aa4a214a79e388',
    trades: [
      {
        side: 'sell',
        token: 'GMAC',
        tokenMint: '0xdc8b6b6beab4d5034ae91b7a1cf7d05a41f0d239',
        amount: '75752.06173519',
        amountSol: '0.100234625527386499',
        dex: 'paraswap',
      },
    ],
    why: "ParaSwap Augustus V6.2 0x6a000f20… → paraswap. Log 0: the wallet gives 75752061735190000000000 GMAC (Gemach 0xdc8b6b6b…, 18 dec) to Augustus; log 3: all of it to Curve tricrypto-ng pool 0x96aaf8f6 (TokenExchange log 7: sold_id 2 75752061735190000000000, bought_id 1 100234625527386499). The pool wraps its ETH (log 5 WETH minted to the pool, log 6 to Augustus; internal row pool → WETH) and log 8: Augustus passes 100234625527386499 WETH to the wallet. WETH received → sell; amountSol = the Curve event's 0.100234625527386499.",
    venues: [
      {
        address: '0x96aaf8f6a2e3f45aaf548b753a0e004211e0ad63',
        kind: 'curve',
        token0: '0xdc8b6b6beab4d5034ae91b7a1cf7d05a41f0d239',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        source:
          'Curve tricrypto-ng pool (TokenExchange(address,uint256,uint256,uint256,uint256,uint256,uint256)); coins 0 crvUSD, 1 WETH, 2 GMAC as its events show',
      },
    ],
  },
  {
    hash: '0xf9a632e9cdf86b0af99d38b3bb83d8e73c115c181ca111b917f189851b7e0191',
    chain: 'arbitrum',
    wallet: '0xcb3e623344178a91ca82777b51cdfc1155d5134a',
    trades: [
      { side: 'sell', token: 'USDC', tokenMint: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8', amount: '1000', amountSol: null, dex: 'paraswap' },
      { side: 'buy', token: 'USD₮0', tokenMint: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', amount: '1001.869756', amountSol: null, dex: 'paraswap' },
    ],
    why: 'ParaSwap Augustus V6.2 0x6a000f20… → paraswap. Log 6: 1000000000 USDC.e wallet → Augustus → Curve 2pool 0x7f90122b (log 8; TokenExchange log 11: 1000000000 USDC.e in, 1001870050 USDT out) → log 10: USDT to Augustus, which keeps 294 (log 12 to 0x00700052, fee from the output) and pays 1001869756 to the wallet (log 13) → amount 1001.869756. Stablecoin for stablecoin, no native leg → amountSol null.',
    ambiguous:
      "Symbol: Arbitrum's USDT 0xfd086bc7… was upgraded in place to USDT0 (LayerZero OFT) in January 2025 and its symbol() now answers 'USD₮0'; it was 'USDT' when this swap happened. tokens.json has no recorded answer. The entry uses the current on-chain symbol (the project reads symbol() when it decodes); a replay that answers 'USDT' needs this token field changed.",
    venues: [
      {
        address: '0x7f90122bf0700f9e7e1f688fe926940e8839f353',
        kind: 'curve',
        token0: '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8',
        token1: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
        source: 'Curve 2pool USDC.e/USDT on Arbitrum (TokenExchange int128 shape)',
      },
    ],
  },
  {
    hash: '0xd4b65b099928142f9ad8dad41f8de1e8c2ca4cd6551b930828eda5a8b72392db',
    chain: 'arbitrum',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [
      {
        side: 'sell',
        token: 'PENDLE',
        tokenMint: '0x0c880f6761f1af8d9aa9c466984b80dab9a8c9e8',
        amount: '143.756192438165803975',
        amountSol: null,
        dex: '1inch',
      },
      { side: 'buy', token: 'cbBTC', tokenMint: '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf', amount: '0.00503188', amountSol: null, dex: '1inch' },
    ],
    why: "Settlement, a 1inch Fusion fill: resolver 0xff86dde3 sent it to its contract 0xad3b67bc, and 1inch AggregationRouterV6 0x111111125421… emitted OrderFilled (log 23). The order's maker 0x3ba6eb0e gives 143756192438165803975 PENDLE (log 0, to the resolver's executor 0xde9e4fe3) and receives 503188 cbBTC (8 dec, log 22 from 0xad3b67bc). The resolver routed the PENDLE over four pools — Uniswap V3 0xe8629b6a, PancakeSwap V3 0x042691f7, Uniswap V3 0xb08a8794, Camelot V3 0xe461f84c (5750247697526632159 + 8625371546289948238 + 40251733882686425113 + 89128839311662798465) — into 160350897640271493 WETH, then PancakeSwap V3 WBTC/WETH 0x4bfc22a4 → 504745 WBTC → PancakeSwap V3 cbBTC/WBTC 0x70db4449 → 503371 cbBTC to 0xad3b67bc, which kept 183. A settlement order between two non-native tokens: amountSol null whatever the resolver routed through; dex 1inch (a 1inch order). The resolver's sender has no balance change and no trade.",
    ambiguous:
      "decisions.md names CoW and UniswapX owners explicitly; GOLDEN.md extends the owner rule to 1inch Fusion makers, followed here (wallet = sender 0xff86dde3 would have no trade). amountSol null follows the settlement rule although the resolver's route had a WETH middle leg (160350897640271493).",
    venues: [
      {
        address: '0xe8629b6a488f366d27dad801d1b5b445199e2ada',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x0c880f6761f1af8d9aa9c466984b80dab9a8c9e8',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        fee: 10000,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 10000)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xe8629b6a488f366d27dad801d1b5b445199e2ada',
      },
      {
        address: '0x042691f78269ba3d6325c945044239758aecc275',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x0c880f6761f1af8d9aa9c466984b80dab9a8c9e8',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        fee: 500,
        source:
          'CREATE2(PancakeV3PoolDeployer 0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2) = 0x042691f78269ba3d6325c945044239758aecc275; factory() is PancakeV3Factory (developer.pancakeswap.finance v3 addresses)',
      },
      {
        address: '0xb08a8794a5d3ccca3725d92964696858d3201909',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x0c880f6761f1af8d9aa9c466984b80dab9a8c9e8',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xb08a8794a5d3ccca3725d92964696858d3201909',
      },
      {
        address: '0xe461f84c3fe6bcdd1162eb0ef4284f3bb6e4cad3',
        kind: 'v3',
        factory: '0x1a3c9b1d2f0529d97f2afc5136cc23e58f1fd35b',
        token0: '0x0c880f6761f1af8d9aa9c466984b80dab9a8c9e8',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        source:
          "Camelot V3 (Algebra) pool: CREATE2(AlgebraPoolDeployer 0x6dd3fb9653b10e806650f107c3b5a0a6ff974f65, salt keccak256(abi.encode(token0, token1)), init code hash 0x6c1bebd370ba84753516bc1393c0d0a6c645856da55f5393ac8ab3d6dbc861d3) = 0xe461f84c3fe6bcdd1162eb0ef4284f3bb6e4cad3; emits Uniswap V3's Swap event and Fee(uint16,uint16)",
      },
      {
        address: '0x4bfc22a4da7f31f8a912a79a7e44a822398b4390',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        fee: 100,
        source:
          'CREATE2(PancakeV3PoolDeployer 0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2) = 0x4bfc22a4da7f31f8a912a79a7e44a822398b4390; factory() is PancakeV3Factory (developer.pancakeswap.finance v3 addresses)',
      },
      {
        address: '0x70db444986a997eb74e520f19d367e13d75ef97f',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f',
        token1: '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf',
        fee: 100,
        source:
          'CREATE2(PancakeV3PoolDeployer 0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2) = 0x70db444986a997eb74e520f19d367e13d75ef97f; factory() is PancakeV3Factory (developer.pancakeswap.finance v3 addresses)',
      },
    ],
  },
  {
    hash: '0xeb91cb1f850ebf1ac028b9c23c2445e8d050df6eca58f9aff6a2f77e5d156fcc',
    chain: 'arbitrum',
    wallet: '0xd918f8179e915e523c0d14b98ddd45ad6ae82076',
    trades: [
      { side: 'buy', token: 'USD₮0', tokenMint: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9', amount: '57.839494', amountSol: '0.0305382', dex: '1inch' },
    ],
    why: "Rainbow's router 0x00000000009726632680fb29d3f7a9734e3010e2 (a front end) forwarding to 1inch AggregationRouterV6 → 1inch. Of the 30800000000000000 wei sent, Rainbow keeps 261800000000000 (its fee, not part of amountSol) and passes 30538200000000000 to 1inch (internal rows), whose executor 0xde9e4fe3 wraps it (log 9) and pays it into Uniswap V3 WETH/USDC pool 0x6f38e884 (log 11; Swap log 12 amount0 +30538200000000000) → amountSol 0.0305382. Then 57888380 USDC → a Balancer-V2-shaped vault 0xd315a9c3 (Swap log 15; not Balancer's Vault) → 70153 WBTC → PancakeSwap V3 WBTC/USDT pool 0xeaf03f38 (Swap log 20) → log 18: 57839494 USDT to the 1inch router → log 21: Rainbow's router → log 22: the wallet → amount 57.839494.",
    ambiguous:
      "Symbol: Arbitrum's USDT 0xfd086bc7… was upgraded in place to USDT0 (LayerZero OFT) in January 2025 and its symbol() now answers 'USD₮0'; it was 'USDT' when this swap happened. tokens.json has no recorded answer. The entry uses the current on-chain symbol (the project reads symbol() when it decodes); a replay that answers 'USDT' needs this token field changed.",
    venues: [
      {
        address: '0x6f38e884725a116c9c7fbf208e79fe8828a2595f',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x6f38e884725a116c9c7fbf208e79fe8828a2595f',
      },
      {
        address: '0xd315a9c38ec871068fec378e4ce78af528c76293',
        kind: 'other',
        token0: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        token1: '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f',
        source: "Balancer-V2-shaped vault that is not Balancer's (pool id 0x0a938dd6…0008); token0/token1 are tokenIn/tokenOut",
      },
      {
        address: '0xeaf03f385c642b02b5c563640bba7c4fbf96c27d',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f',
        token1: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
        fee: 100,
        source:
          'CREATE2(PancakeV3PoolDeployer 0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2) = 0xeaf03f385c642b02b5c563640bba7c4fbf96c27d; factory() is PancakeV3Factory (developer.pancakeswap.finance v3 addresses)',
      },
    ],
  },
  {
    hash: '0x4b83d2533c76e1840851e3fe7bd49eded1e3c40e81267850601850ab21afbf96',
    chain: 'arbitrum',
    wallet: '0x34a303adf91883f7d07759e7f7159944500277e5',
    trades: [{ side: 'buy', token: 'USDC', tokenMint: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', amount: '0.645954', amountSol: '0.000321732', dex: '0x' }],
    why: "Sent to 0x Settler 0xb254ee26… (execute, selector 0x1fff991f; listed as Settler v1.9 on Arbitrum in rotki/rotki's arbitrum_one zerox constants; found through 0x's deployer registry) → 0x. Of the 324000000000000 wei sent, 2268000000000 go to 0x86924c37 (fee, internal row); 321732000000000 are wrapped (log 3) and 241299000000000 unwrapped again (log 4) and paid as native ETH into Uniswap V4's PoolManager 0x360e68fa (internal row; Swap log 5, pool 0x19235486… = ETH/USDC fee 100: amount0 −241299000000000, amount1 +484926), while 80433000000000 WETH are paid in (log 9; Swap log 7, pool 0xfc7b3ad1… = WETH/USDC fee 500: amount0 −80433000000000, amount1 +161998). The Settler receives 484926 + 161998 USDC (logs 6, 8), sends 970 to 0xad01c20d (fee, log 10) and 645954 to the wallet (log 11) → amount 0.645954. One buy (a split of one token is summed): amountSol = native paid into the PoolManager 241299000000000 + 80433000000000 = 0.000321732.",
    venues: [
      {
        address: '0x19235486bda85a935bed1024abfc40ed02cd3fb14b43ced1f644b74c9398451a',
        kind: 'v4',
        factory: '0x360e68faccca8ca495c1b759fd9eee466db9fb32',
        token0: '0x0000000000000000000000000000000000000000',
        token1: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        fee: 100,
        source:
          'Uniswap V4 pool id (PoolManager 0x360e68faccca8ca495c1b759fd9eee466db9fb32): keccak256(abi.encode(0x0000000000000000000000000000000000000000, 0xaf88d065e77c8cc2239327c5edb3a432268e5831, 100, tickSpacing 1, hooks 0x0)) = 0x19235486bda85a935bed1024abfc40ed02cd3fb14b43ced1f644b74c9398451a (recomputed); no hooks',
      },
      {
        address: '0xfc7b3ad139daaf1e9c3637ed921c154d1b04286f8a82b805a6c352da57028653',
        kind: 'v4',
        factory: '0x360e68faccca8ca495c1b759fd9eee466db9fb32',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        fee: 500,
        source:
          'Uniswap V4 pool id (PoolManager 0x360e68faccca8ca495c1b759fd9eee466db9fb32): keccak256(abi.encode(0x82af49447d8a07e3bd95bd0d56f35241523fbab1, 0xaf88d065e77c8cc2239327c5edb3a432268e5831, 500, tickSpacing 10, hooks 0x0)) = 0xfc7b3ad139daaf1e9c3637ed921c154d1b04286f8a82b805a6c352da57028653 (recomputed); no hooks',
      },
    ],
  },
  {
    hash: '0xfb27923fce50ff6769e364c48b8fd32d1bf83e4c2b67bdc49d12627873c5908a',
    chain: 'arbitrum',
    wallet: '0xa304816c9c78505714f24fc13222fe07ce0cc711',
    trades: [
      {
        side: 'sell',
        token: 'TROVE',
        tokenMint: '0x982239d38af50b0168da33346d85fb12929c4c07',
        amount: '896.19644935580143159',
        amountSol: '0.000813622663851767',
        dex: 'magpie',
      },
    ],
    why: "Sent to Magpie's Arbitrum router 0x34cdce58… (Magpie v3.0 router in rotki/rotki's magpie decoder), an aggregator (its own Swap(address,address,address,address,uint256,uint256) event, log 14) → magpie. Log 6: the wallet pays 2240491123389503579 TROVE (Arbitrove, 18 dec) to 0x39041f1b (a front-end fee, Rabby's per rotki's test) and log 8: 893955958232411928011 TROVE straight into Camelot V2 pair 0x9164424a (Swap log 11: amount1In 893955958232411928011, amount0Out 813622663851767); log 9: 813622663851767 WETH to the router, log 13 unwraps it, the internal rows pay 813622663851767 wei to the wallet. amount = all TROVE that left the wallet, 2240491123389503579 + 893955958232411928011 = 896.19644935580143159 (a fee taken from the input); amountSol = WETH out of the pair 0.000813622663851767. Pair = CREATE2 of Camelot's V2 factory for WETH/TROVE.",
    ambiguous:
      "Magpie is not among decisions.md's named aggregators; it is the aggregator router the transaction called, so it takes its own slug 'magpie' (its router must be in the chain's aggregators list). Without that entry the pair's venue would apply (camelot-v2 if configured, else unknown-v2-fork). The amount includes the 2.240491123389503579 TROVE front-end fee paid from the wallet.",
    venues: [
      {
        address: '0x9164424a33a89202040f02170431073c59efa1a9',
        kind: 'v2',
        factory: '0x6eccab422d763ac031210895c81787e87b43a652',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0x982239d38af50b0168da33346d85fb12929c4c07',
        source:
          'CREATE2(Camelot V2 factory 0x6eccab422d763ac031210895c81787e87b43a652, salt keccak256(token0 ++ token1), init code hash 0xa856464ae65f7619087bc369daaf7e387dae1e5af69cfa7935850ebf754b04c1) = 0x9164424a33a89202040f02170431073c59efa1a9',
      },
    ],
  },
  {
    hash: '0x5a092c4d40f2f6a090ec00c38c5b6266bd07f4e6ab3ff87f18c575749a4e60ec',
    chain: 'arbitrum',
    wallet: '0xac305b47bb34ad6bb566288050920e9307fd23a7',
    trades: [
      {
        side: 'sell',
        token: 'CRV',
        tokenMint: '0x11cdb42b0eb46d95f990bedd4695a6e3fa034978',
        amount: '7.74372251908424143',
        amountSol: '0.002036613409952366',
        dex: '1inch',
      },
    ],
    why: '1inch AggregationRouterV6 0x111111125421… → 1inch. Log 10: the wallet gives 7743722519084241430 CRV to executor 0xde9e4fe3 → PancakeSwap V3 CRV/WETH pool 0xdd8d6624 (fee 500; log 13; Swap log 14: amount0 +7743722519084241430, amount1 −2036613409952366) → log 12: 2036613409952366 WETH to the executor, unwrapped (log 15) and paid executor → router → wallet (internal rows) → amountSol 0.002036613409952366.',
    venues: [
      {
        address: '0xdd8d6624a601ab4f0c898dfd04aabfbeaa0ff317',
        kind: 'v3',
        factory: '0x0bfbcf9fa4f9c56b0f40a671ad40e0805a091865',
        token0: '0x11cdb42b0eb46d95f990bedd4695a6e3fa034978',
        token1: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        fee: 500,
        source:
          'CREATE2(PancakeV3PoolDeployer 0x41ff9aa7e16b8b1a8a8dc4f0efacd93d02d071c9, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0x6ce8eb472fa82df5469c6ab6d485f17c3ad13c8cd7af59b3d4a8026c5ce0f7e2) = 0xdd8d6624a601ab4f0c898dfd04aabfbeaa0ff317; factory() is PancakeV3Factory (developer.pancakeswap.finance v3 addresses)',
      },
    ],
  },
  {
    hash: '0x9ade23d1ea48257b13e983d0a542fafbfa1dd195975a94b8d3505ef767527167',
    chain: 'arbitrum',
    wallet: '0xd67ecd5c445519bdeae60fd53541100f5d9f5fb1',
    trades: [],
    why: "Complex, a Beefy zap (0xf49f7bb6) into the mooAuraArbrsETH-WETH vault: the 238936751377925280 wei sent are wrapped (log 33) and joined to Balancer V2's rsETH/wETH pool (PoolBalanceChanged log 40, BPT minted log 37), staked through Aura into Beefy, and the wallet receives 219166695622906559 mooAuraArbrsETH-WETH vault shares (log 105). Inside, Beefy's strategy 0x498be1ff harvests BAL and AURA and sells them for WETH on Balancer V2 (Swap logs 46, 50: the strategy trading its own balance) and pays the harvest call fee 1355478180152 WETH to the wallet (log 54). A vault deposit (receipt token minted) plus a harvest reward: no trade.",
  },
  {
    hash: '0x3ea90c2f3882c798185d135307a5ee3c366790c62bf9755f1035ff6bd9fb5381',
    chain: 'arbitrum',
    wallet: '0xb2fb1e31baffacee52d4b9ab79009eccccb856e5',
    trades: [
      {
        side: 'sell',
        token: 'ATH',
        tokenMint: '0xc87b37a581ec3257b734886d9d3a581f5a9d056c',
        amount: '3908.26',
        amountSol: '0.029015039707052972',
        dex: 'uniswap-v3',
      },
    ],
    why: "Universal Router 0xa51afafe… (Arbitrum's in docs.uniswap.org's v4 deployments) → pools' venue. Log 9: the wallet gives 3908260000000000000000 ATH (Aethir, 18 dec) via Permit2 straight to pool 0x5cbddc44 (Swap log 10: amount1 +3908260000000000000000, amount0 −29015039707052972); log 8: 29015039707052972 WETH to the router, which pays 72537599267632 to 0x89f30783 (log 11, the interface fee, not part of amountSol) and unwraps 28942502107785340 for the wallet (log 12, internal rows). amountSol = WETH out of the pool 0.029015039707052972. Pool = CREATE2 of UniswapV3Factory for WETH/ATH fee 3000 → uniswap-v3.",
    venues: [
      {
        address: '0x5cbddc44f31067df328aa7a8da03aca6f2edd2ad',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
        token1: '0xc87b37a581ec3257b734886d9d3a581f5a9d056c',
        fee: 3000,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 3000)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x5cbddc44f31067df328aa7a8da03aca6f2edd2ad',
      },
    ],
  },
  {
    hash: '0xa604ae170e78c203330605619e82c82337daf8d1af52b78cdf82db82c3f9deb4',
    chain: 'arbitrum',
    wallet: '0x706a70067be19bdadbea3600db0626859ff25d74',
    trades: [],
    why: 'Negative: Uniswap V4 PositionManager 0xd88f38f9… multicall mints position NFT 61908 (log 7) and adds liquidity to pool 0x864abca0… (ETH/USDC; ModifyLiquidity log 8) with 50000000 USDC (log 9) and 9160753478273742 of the 9187576944436132 wei sent (26823466162390 refunded, internal rows). A liquidity add is not a trade.',
  },
  {
    hash: '0x0ca4942007ea1e93a7b979da6066bb9b5ac25c14ebd8a8a4002bd03c339c0606',
    chain: 'arbitrum',
    wallet: '0x706a70067be19bdadbea3600db0626859ff25d74',
    trades: [],
    why: 'Negative: NonfungiblePositionManager 0xc36442b4… multicall mints V3 position 4818837 (log 5) in WBTC/WETH pool 0x2f5e87c9 (Mint log 4) with 16509 WBTC (log 0) and 4921550321882571 wei wrapped from the value (logs 2-3; 78371721021469 refunded). A liquidity add is not a trade.',
  },
  {
    hash: '0x812c09ea25ccfa9db288c40d086bbec21ab23b8ebce18a9d388111488f7db945',
    chain: 'arbitrum',
    wallet: '0x58ea4953f07a23232ff6fdfce008bbfe010f801c',
    trades: [],
    why: 'Complex, a LI.FI swap-and-bridge (diamond 0x1231deb6…): the wallet gives 57000421 USDC (log 1); LI.FI swaps it through KyberSwap on PancakeSwap V3 USDC/axlUSDC pool 0x3c2bf5c0 into 57005087 axlUSDC (logs 4-10, AssetSwapped log 12) and hands it to Squid/Axelar (0xce16f693, burned log 15) for BNB Chain (LiFiTransferStarted log 17); the 71721004734066 wei sent pay the bridge. The wallet receives nothing on Arbitrum: a bridge transfer, no trade on this chain.',
    ambiguous:
      "The source-chain USDC → axlUSDC swap is made on the wallet's behalf, but its output leaves through the bridge; the wallet gives USDC and gains nothing here, so no trade (the purchase happens on the destination chain).",
  },
  {
    hash: '0x400609566f1da2fa6f6e7306fb059f01c94357c1e46c46575095956a584c38e5',
    chain: 'arbitrum',
    wallet: '0x21f2a9b5f420245d86e8faa753022da01946b13f',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        amount: '1',
        amountSol: '0.000270113488716386',
        dex: 'uniswap-v4',
      },
    ],
    why: "Universal Router 0xa51afafe… → Uniswap V4 PoolManager 0x360e68fa… (Arbitrum's, docs.uniswap.org v4 deployments). Swap log 49 on pool 0x864abca0… = (ETH, USDC, fee 500, tickSpacing 10, no hooks): amount0 +270113488716386 (ETH to the swapper), amount1 −1000000. Log 50: the wallet pays 1000000 USDC to the PoolManager. The PoolManager sends 270113488716386 wei to the router, which pays 675283721790 to 0x89f30783 (interface fee) and 269438204994596 to the wallet (internal rows). amountSol = the PoolManager's figure 0.000270113488716386 (no hook, so no hook fee).",
    venues: [
      {
        address: '0x864abca0a6202dba5b8868772308da953ff125b0f95015adbf89aaf579e903a8',
        kind: 'v4',
        factory: '0x360e68faccca8ca495c1b759fd9eee466db9fb32',
        token0: '0x0000000000000000000000000000000000000000',
        token1: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
        fee: 500,
        source:
          'Uniswap V4 pool id (PoolManager 0x360e68faccca8ca495c1b759fd9eee466db9fb32): keccak256(abi.encode(0x0000000000000000000000000000000000000000, 0xaf88d065e77c8cc2239327c5edb3a432268e5831, 500, tickSpacing 10, hooks 0x0)) = 0x864abca0a6202dba5b8868772308da953ff125b0f95015adbf89aaf579e903a8 (recomputed); no hooks',
      },
    ],
  },
  {
    hash: '0x9f0a724426cc0ffbe362e9104fd52aad3e7d8097d9c2a07cbeaa9be701160af6',
    chain: 'arbitrum',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [],
    why: "Complex, a LI.FI swap-and-bridge: of the 327600637606583949 wei sent, 327587518531834398 go to LI.FI's DEX aggregator 0x57f96440 and its executor 0xcae986e8, are wrapped (log 6) and swapped into 697727485 USDT through PancakeSwap V3 0x7fcdc354, Camelot V3 0xb1026b8e and the Uniswap V4 USDC/USDT pool 0xab05003a… (logs 8-21); the USDT goes to the diamond (log 21) and is burned by the USDT0 OFT adapter 0x023fa838 for delivery on another chain (logs 24-27, LiFiTransferStarted log 33); 13119074749551 wei pay the messaging fee. The wallet receives nothing on Arbitrum: a bridge, no trade here.",
  },
  {
    hash: '0x82e41cedb2265288f4475d8c7137bcaa031e5969ecbfa21551a797f5a7a71e8f',
    chain: 'optimism',
    wallet: '0x61c7953578576f56e369482cbbe545733798a3b7',
    trades: [{ side: 'buy', token: 'USDC', tokenMint: '0x7f5c764cbc14f9669b88837ca1490cca17c31607', amount: '2494.738788', amountSol: '1.347', dex: 'odos' }],
    why: "Odos V1 router on Optimism 0x69dd3864… (Odos router list in DefiLlama's LlamaSwap Odos adapter and Dune's dex-aggregator labels) → odos (its Swapped event, log 27). The 1347000000000000000 wei sent go to Odos's executor 0x99e44a39 (internal row), are wrapped (Deposit log 22) and paid into Uniswap V3 WETH/USDC.e pool 0x85149247 (log 24; Swap log 25 amount0 +1347000000000000000) → amountSol 1.347; log 23: the pool pays 2494738788 USDC.e (0x7f5c…, tokens.json symbol 'USDC', 6 dec) to the router, log 26: router → wallet → amount 2494.738788.",
    venues: [
      {
        address: '0x85149247691df622eaf1a8bd0cafd40bc45154a9',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x85149247691df622eaf1a8bd0cafd40bc45154a9',
      },
    ],
  },
  {
    hash: '0x8d65dc5a77aaceabac3b80fd28f8fa3cd45143748c2d31598706580f68d724da',
    chain: 'optimism',
    wallet: '0x78c13393aee675dd7ed07ce992210750d1f5db88',
    trades: [
      {
        side: 'buy',
        token: 'OP',
        tokenMint: '0x4200000000000000000000000000000000000042',
        amount: '11.895061655417592619',
        amountSol: '0.01',
        dex: 'velodrome',
      },
    ],
    why: "Velodrome V2 Router 0xa062ae8a… (Velodrome's own router, not an aggregator). The 10000000000000000 wei sent are wrapped (Deposit log 74) and paid into Velodrome V2 stable pool 0x3f42dc59 sAMMV2-WETH/frxETH (log 75; Solidly Swap log 80 amount0In 10000000000000000) → amountSol 0.01 (the 5000000000000 WETH the pool moves to its fee contract, log 77, stays inside the venue); 10035730217699197 frxETH (log 76) → volatile pool 0x2fe304b4 vAMMV2-OP/frxETH (Swap log 85) → log 81: 11895061655417592619 OP straight to the wallet. Both pools are Velodrome V2 pools (EIP-1167 clones CREATE2'd by PoolFactory 0xf1046053…) → velodrome, the venue that delivered OP.",
    ambiguous:
      "Velodrome is not a built-in slug; 'velodrome' (V2, Solidly pools, like aerodrome on Base) comes from the Optimism chain entry proposed with this set.",
    venues: [
      {
        address: '0x3f42dc59dc4df5cd607163bc620168f7ff7ab970',
        kind: 'solidly',
        factory: '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x6806411765af15bddd26f8f544a34cc40cb9838b',
        source:
          "Velodrome V2 stable pool: EIP-1167 clone of Pool 0x95885af5492195f0754be71ad1545fe81364e531 CREATE2'd by PoolFactory 0xf1046053aa5682b4f9a81b5481394da16be5ff5a with salt keccak256(token0 ++ token1 ++ true) = 0x3f42dc59dc4df5cd607163bc620168f7ff7ab970",
      },
      {
        address: '0x2fe304b407c7fab2a3c10962f14db751468a4f5b',
        kind: 'solidly',
        factory: '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        token0: '0x4200000000000000000000000000000000000042',
        token1: '0x6806411765af15bddd26f8f544a34cc40cb9838b',
        source:
          "Velodrome V2 volatile pool: EIP-1167 clone of Pool 0x95885af5492195f0754be71ad1545fe81364e531 CREATE2'd by PoolFactory 0xf1046053aa5682b4f9a81b5481394da16be5ff5a with salt keccak256(token0 ++ token1 ++ false) = 0x2fe304b407c7fab2a3c10962f14db751468a4f5b",
      },
    ],
  },
  {
    hash: '0xa1cf038ca08b51971314b4f8e006b455f2a82f113899e5eb7818ac1528605bfc',
    chain: 'optimism',
    wallet: '0x78c13393aee675dd7ed07ce992210750d1f5db88',
    trades: [],
    why: 'Negative: Velodrome V2 Router addLiquidity. The wallet puts 5000000000000000 WETH (log 67) and 5960043211306826894 OP (log 69) into pool 0xd25711ed and receives 172627291949741834 vAMMV2-WETH/OP LP tokens (log 70; Mint log 72). A liquidity add is not a trade.',
  },
  {
    hash: '0x81351bf9ca6d78bff92d2b714d68dd7c785bb70de0e250bc7bc6ab073736d1ce',
    chain: 'optimism',
    wallet: '0x78c13393aee675dd7ed07ce992210750d1f5db88',
    trades: [],
    why: 'Negative: Velodrome V2 Router removeLiquidity. The wallet returns 86313645974870917 vAMMV2-WETH/OP LP (log 33, burned log 34) and receives 2487103206849621 WETH and 2995474411210852897 OP (logs 35-36; Burn log 38). A liquidity remove is not a trade.',
  },
  {
    hash: '0x15c46045b9a4b03d15f0260f6518563f9a050fd693712330d9c05bedef833886',
    chain: 'optimism',
    wallet: '0x2359497cc3f8f11a80d775715367d5cb3d0fd274',
    trades: [
      {
        side: 'sell',
        token: 'OP',
        tokenMint: '0x4200000000000000000000000000000000000042',
        amount: '91.173214418890299607',
        amountSol: '0.0770899907450713',
        dex: 'velodrome',
      },
    ],
    why: "Velodrome V2 Router 0xa062ae8a…. Log 96: the wallet pays 91173214418890299607 OP straight into Velodrome V2 pool 0xd25711ed vAMMV2-WETH/OP (Solidly Swap log 102: amount1In 91173214418890299607, amount0Out 77089990745071300; log 99 is the pool's fee moved to its fee contract, inside the venue); log 98: 77089990745071300 WETH to the router, Withdrawal log 103, internal rows pay 77089990745071300 wei to the wallet → amountSol 0.0770899907450713. Pool = Velodrome V2 clone of PoolFactory 0xf1046053… → velodrome.",
    venues: [
      {
        address: '0xd25711edfbf747efce181442cc1d8f5f8fc8a0d3',
        kind: 'solidly',
        factory: '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x4200000000000000000000000000000000000042',
        source:
          "Velodrome V2 volatile pool: EIP-1167 clone of Pool 0x95885af5492195f0754be71ad1545fe81364e531 CREATE2'd by PoolFactory 0xf1046053aa5682b4f9a81b5481394da16be5ff5a with salt keccak256(token0 ++ token1 ++ false) = 0xd25711edfbf747efce181442cc1d8f5f8fc8a0d3",
      },
    ],
  },
  {
    hash: '0xaa6b816c09863eab80f6184ab4112d7fea3a813c194dcebf08b6d4e13df22354',
    chain: 'optimism',
    wallet: '0xb1d34002ee676516787fd8cdb9c549a415f68aa8',
    trades: [
      {
        side: 'buy',
        token: 'EURA',
        tokenMint: '0x9485aca5bbbe1667ad97c7fe7c4531a624c8b1ed',
        amount: '0.130694520044655821',
        amountSol: '0.0000857',
        dex: 'velodrome-v1',
      },
    ],
    why: "Velodrome V1 Router 0x9c129393… (Velodrome's own router). The 85700000000000 wei sent are wrapped (Deposit log 0) and paid into V1 pair 0x06141423 vAMM-VELO/WETH (log 1; Swap log 6 amount1In 85700000000000) → amountSol 0.0000857; 2416101106148784768 VELO(v1) → pair 0xe8537b6f vAMM-VELO/USDC (Swap log 11) → 139670 USDC.e → pair 0x7866c607 vAMM-USDC/agEUR (Swap log 16) → log 12: 130694520044655821 agEUR/EURA (0x9485aca5…, 18 dec) straight to the wallet. Velodrome V1 pairs emit Uniswap V2's Swap event; all three are CREATE2 pairs of the Velodrome V1 factory 0x25cbddb9… → velodrome-v1 (the pair that delivered the token).",
    ambiguous:
      "Symbol: the token was created as agEUR (the V1 pair's own symbol 'vAMM-USDC/agEUR' in tokens.json was built from it); Angle renamed agEUR to EURA and upgrades each chain's agToken with setNameAndSymbol('EURA','EURA') (AngleProtocol/angle-multisig UpgradeAgTokenNameable), so symbol() is taken to answer 'EURA' now — if Optimism's token was not upgraded, the token field is 'agEUR'. Slug: Velodrome V1 is not a built-in slug; 'velodrome-v1' comes from the chain entry proposed with this set.",
    venues: [
      {
        address: '0x06141423dcf1a5a4c137039063ac873cdc1e363a',
        kind: 'v2',
        factory: '0x25cbddb98b35ab1ff77413456b31ec81a6b6b746',
        token0: '0x3c8b650257cfb5f272f799f5e2b4e65093a11a05',
        token1: '0x4200000000000000000000000000000000000006',
        source:
          "Velodrome V1 volatile pair (emits Uniswap V2's Swap event): CREATE2(factory 0x25cbddb98b35ab1ff77413456b31ec81a6b6b746, salt keccak256(token0 ++ token1 ++ false), init code hash 0xc1ac28b1c4ebe53c0cff67bab5878c4eb68759bb1e9f73977cd266b247d149f0) = 0x06141423dcf1a5a4c137039063ac873cdc1e363a",
      },
      {
        address: '0xe8537b6ff1039cb9ed0b71713f697ddbadbb717d',
        kind: 'v2',
        factory: '0x25cbddb98b35ab1ff77413456b31ec81a6b6b746',
        token0: '0x3c8b650257cfb5f272f799f5e2b4e65093a11a05',
        token1: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        source:
          "Velodrome V1 volatile pair (emits Uniswap V2's Swap event): CREATE2(factory 0x25cbddb98b35ab1ff77413456b31ec81a6b6b746, salt keccak256(token0 ++ token1 ++ false), init code hash 0xc1ac28b1c4ebe53c0cff67bab5878c4eb68759bb1e9f73977cd266b247d149f0) = 0xe8537b6ff1039cb9ed0b71713f697ddbadbb717d",
      },
      {
        address: '0x7866c6072b09539fc0fde82963846b80203d7beb',
        kind: 'v2',
        factory: '0x25cbddb98b35ab1ff77413456b31ec81a6b6b746',
        token0: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        token1: '0x9485aca5bbbe1667ad97c7fe7c4531a624c8b1ed',
        source:
          "Velodrome V1 volatile pair (emits Uniswap V2's Swap event): CREATE2(factory 0x25cbddb98b35ab1ff77413456b31ec81a6b6b746, salt keccak256(token0 ++ token1 ++ false), init code hash 0xc1ac28b1c4ebe53c0cff67bab5878c4eb68759bb1e9f73977cd266b247d149f0) = 0x7866c6072b09539fc0fde82963846b80203d7beb",
      },
    ],
  },
  {
    hash: '0x8c36e51bc4d3deec6a4c06a59179083adfd9caa8a5ad7e957e639d5792c9e139',
    chain: 'optimism',
    wallet: '0x60583f22ada7b1352bb2faf694b3eaaf942696dd',
    trades: [
      {
        side: 'sell',
        token: 'DOLA',
        tokenMint: '0x8ae125e8653821e851f12a49f7765db9a9ce7384',
        amount: '1177.178869111912387354',
        amountSol: null,
        dex: 'velodrome',
      },
      {
        side: 'buy',
        token: 'DUSD',
        tokenMint: '0xb396b31599333739a97951b74652c117be86ee1d',
        amount: '1122.945013439390360367',
        amountSol: null,
        dex: 'velodrome',
      },
    ],
    why: "Velodrome V2 Router 0xa062ae8a…. Log 90: the wallet pays 1177178869111912387354 DOLA straight into stable pool 0x1f8b46ab sAMMV2-FRAX/DOLA (Swap log 96) → log 92: 1168896498385553618947 FRAX to stable pool 0xbf75051f sAMMV2-FRAX/DUSD (Swap log 101) → log 97: 1122945013439390360367 DUSD (Davos 0xb396b315…, 18 dec; symbol as in the pool's own symbol 'sAMMV2-FRAX/DUSD') to the wallet. Both pools are Velodrome V2 clones of PoolFactory 0xf1046053… → velodrome on both legs. Stablecoins only, no native leg → amountSol null.",
    venues: [
      {
        address: '0x1f8b46abe1eabf5a60cbbb5fb2e4a6a46fa0b6e6',
        kind: 'solidly',
        factory: '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        token0: '0x2e3d870790dc77a83dd1d18184acc7439a53f475',
        token1: '0x8ae125e8653821e851f12a49f7765db9a9ce7384',
        source:
          "Velodrome V2 stable pool: EIP-1167 clone of Pool 0x95885af5492195f0754be71ad1545fe81364e531 CREATE2'd by PoolFactory 0xf1046053aa5682b4f9a81b5481394da16be5ff5a with salt keccak256(token0 ++ token1 ++ true) = 0x1f8b46abe1eabf5a60cbbb5fb2e4a6a46fa0b6e6",
      },
      {
        address: '0xbf75051f6e6df9fecf90d9bebbbb08a85950858c',
        kind: 'solidly',
        factory: '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        token0: '0x2e3d870790dc77a83dd1d18184acc7439a53f475',
        token1: '0xb396b31599333739a97951b74652c117be86ee1d',
        source:
          "Velodrome V2 stable pool: EIP-1167 clone of Pool 0x95885af5492195f0754be71ad1545fe81364e531 CREATE2'd by PoolFactory 0xf1046053aa5682b4f9a81b5481394da16be5ff5a with salt keccak256(token0 ++ token1 ++ true) = 0xbf75051f6e6df9fecf90d9bebbbb08a85950858c",
      },
    ],
  },
  {
    hash: '0x3cb68ee7dae76c0ca6466e3a593b32144d25eabb27c1ba416c83f154627d84d8',
    chain: 'optimism',
    wallet: '0x3ba6eb0e4327b96ade6d4f3b578724208a590cef',
    trades: [
      {
        side: 'sell',
        token: 'VELO',
        tokenMint: '0x9560e827af36c94d2ac33a39bce1fe78631088db',
        amount: '81.206684164250046887',
        amountSol: '0.001804115725394426',
        dex: '1inch',
      },
      {
        side: 'buy',
        token: 'wstETH',
        tokenMint: '0x1f32b1c2345538c0c6f582fcb022739c4a194ebb',
        amount: '0.001577438860408636',
        amountSol: '0.001804115725394426',
        dex: '1inch',
      },
    ],
    why: '1inch AggregationRouterV5 0x1111111254eeb… → 1inch. Log 1: 81206684164250046887 VELO wallet → executor 0xb63aae6c → Velodrome V2 VELO/WETH pool 0x58e6433a (log 4; Swap log 9) → log 5: 1804115725394426 WETH to the executor → log 11: 1804115725394426 WETH into Velodrome V2 wstETH/WETH pool 0x6da98bde (Swap log 16) → log 12: 1577438860408636 wstETH to the 1inch router → log 17: the wallet. The WETH middle leg out of the first venue equals what the second took in: amountSol 0.001804115725394426 on both legs.',
    venues: [
      {
        address: '0x58e6433a6903886e440ddf519ecc573c4046a6b2',
        kind: 'solidly',
        factory: '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x9560e827af36c94d2ac33a39bce1fe78631088db',
        source:
          "Velodrome V2 volatile pool: EIP-1167 clone of Pool 0x95885af5492195f0754be71ad1545fe81364e531 CREATE2'd by PoolFactory 0xf1046053aa5682b4f9a81b5481394da16be5ff5a with salt keccak256(token0 ++ token1 ++ false) = 0x58e6433a6903886e440ddf519ecc573c4046a6b2",
      },
      {
        address: '0x6da98bde0068d10ddd11b468b197ea97d96f96bc',
        kind: 'solidly',
        factory: '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        token0: '0x1f32b1c2345538c0c6f582fcb022739c4a194ebb',
        token1: '0x4200000000000000000000000000000000000006',
        source:
          "Velodrome V2 volatile pool: EIP-1167 clone of Pool 0x95885af5492195f0754be71ad1545fe81364e531 CREATE2'd by PoolFactory 0xf1046053aa5682b4f9a81b5481394da16be5ff5a with salt keccak256(token0 ++ token1 ++ false) = 0x6da98bde0068d10ddd11b468b197ea97d96f96bc",
      },
    ],
  },
  {
    hash: '0x9c5debedbbd19fdcb1701e9905a2f0ebf31159eb8073f66de62ffda5680d1d14',
    chain: 'optimism',
    wallet: '0xc29067833665820b3505953a87f8265c9f1a517b',
    trades: [
      { side: 'sell', token: 'USDT', tokenMint: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58', amount: '150', amountSol: null, dex: '1inch' },
      { side: 'buy', token: 'USDC', tokenMint: '0x0b2c639c533813f4aa9d7837caf62653d097ff85', amount: '148.608467', amountSol: null, dex: '1inch' },
    ],
    why: "MetaMask Swaps' router 0x9dda6ef3… (a front end; rotki/rotki metamask constants, Optimism fee receiver 0x45D047bf…) forwarding to 1inch AggregationRouterV5. Log 3: 150000000 USDT wallet → MetaMask's spender 0x0a2854fb, which pays 1312500 to MetaMask's fee receiver 0x45d047bf (log 16: commission from the input, part of the amount 150) and 148687500 to 1inch's executor 0xb63aae6c (log 4) → Curve 3pool 0x1337bedc (TokenExchange log 9: USDT in, 148604449 USDC.e out) → 0x2943f5d7 (log 11), a market maker that gives 148608467 native USDC from 0x20d7ee72 to the 1inch router (log 13; its event log 14 from 0x50a39b94) → 0x0a2854fb (log 15) → wallet (log 17) → amount 148.608467. The route passes through the 1inch router → 1inch. Stablecoins only → amountSol null.",
    venues: [
      {
        address: '0x1337bedc9d22ecbe766df105c9623922a27963ec',
        kind: 'curve',
        token0: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58',
        token1: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        source: 'Curve 3pool DAI/USDC.e/USDT on Optimism (TokenExchange int128 shape; it is also its LP token 3CRV)',
      },
      {
        address: '0x2943f5d7428a8b9fc849e9c33fa46d32c272936e',
        kind: 'other',
        token0: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        token1: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
        source:
          "Wombat cross-chain pool 0x50a39b94 (its SwapV2 event, log 14: fromToken USDC.e, toToken USDC, fromAmount 148604449, toAmount 148608467, toTokenFee 2972): 0x2943f5d7 is the pool's USDC.e asset contract, which took the input, and 0x20d7ee72 its USDC asset, which paid the output",
      },
    ],
  },
  {
    hash: '0x83ac5abc6819fca458f614e4fdbca6fe324bbea8b7ce5fb072bf99407cd8c031',
    chain: 'optimism',
    wallet: '0xda2181fb19f2fe365bef6ccb84209d6fdb0d1828',
    trades: [
      { side: 'sell', token: 'USDT', tokenMint: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58', amount: '16000.007289', amountSol: null, dex: 'paraswap' },
      {
        side: 'buy',
        token: 'sUSD',
        tokenMint: '0x8c6f28f2f1a3c87f0f938b96d27520d9751ec8d9',
        amount: '16026.144971648371197768',
        amountSol: null,
        dex: 'paraswap',
      },
    ],
    why: 'ParaSwap Augustus V5 0xdef171fe… → paraswap (SwappedDirect log 21). Log 11: 16000007289 USDT wallet → Augustus → Curve sUSD/3CRV metapool 0x061b8712 (exchange_underlying: it puts the USDT into 3pool 0x1337bedc — AddLiquidity log 16, 3CRV minted log 15 — and TokenExchangeUnderlying log 18 pays 16026407272974863067802 sUSD to Augustus, log 17). Augustus sends 262301326491870034 to 0xa7465ccd (fee from the output, log 19) and 16026144971648371197768 sUSD to the wallet (log 20) → amount 16026.144971648371197768. No native leg → amountSol null.',
    venues: [
      {
        address: '0x061b87122ed14b9526a813209c8a59a633257bab',
        kind: 'curve',
        token0: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58',
        token1: '0x8c6f28f2f1a3c87f0f938b96d27520d9751ec8d9',
        source: 'Curve sUSD/3CRV metapool on Optimism (TokenExchangeUnderlying; underlying coin 3 = USDT, coin 0 = sUSD)',
      },
    ],
  },
  {
    hash: '0x6b2b2d8c0cf2e27bb9e6c8309fd9887a066f9b72139acfe13d7ca5c29ae6c0ff',
    chain: 'optimism',
    wallet: '0x4ea754349ace5303c82f0d1d491041e042f2ad22',
    trades: [
      { side: 'sell', token: 'USDC', tokenMint: '0x0b2c639c533813f4aa9d7837caf62653d097ff85', amount: '2', amountSol: null, dex: '0x' },
      { side: 'buy', token: 'USDT', tokenMint: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58', amount: '1.180785', amountSol: null, dex: '0x' },
    ],
    why: "Settlement: relayer 0xc65f45c3 sent a 0x meta-transaction to 0x's Exchange Proxy on Optimism 0xdef1abe3… (rotki/rotki optimism zerox constants; flash wallet 0xa3128d9b); MetaTransactionExecuted (log 13) names signer 0x4ea75434, the trader. Logs 5-6: the signer pays 818756 USDC (the meta-transaction fee) to 0x9f660185 and 1181244 USDC to the flash wallet, which pays them into Uniswap V3 USDC/USDT pool 0xa73c628e (fee 100; Swap log 9, BridgeFill log 10) and passes the 1180785 USDT out (log 7) to the signer (log 11). amount sold 2 (fee from the input included), bought 1.180785; no native leg → null; dex 0x.",
    ambiguous:
      "Wallet = the meta-transaction's signer (GOLDEN.md/README settlement reading; decisions.md names only CoW and UniswapX owners). amount 2 includes the 0.818756 USDC meta-transaction fee; without it 1.181244.",
    venues: [
      {
        address: '0xa73c628eaf6e283e26a7b1f8001cf186aa4c0e8e',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
        token1: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xa73c628eaf6e283e26a7b1f8001cf186aa4c0e8e',
      },
    ],
  },
  {
    hash: '0xc19f8f547c49c3f35dae993b713d95cce79aa425563fd28aeaca2510ebb95059',
    chain: 'optimism',
    wallet: '0xc15534ea729972fc21aede69cb7ca16d60e8d342',
    trades: [
      {
        side: 'sell',
        token: 'OP',
        tokenMint: '0x4200000000000000000000000000000000000042',
        amount: '24.828647237813394885',
        amountSol: '0.033469428715795947',
        dex: 'firebird',
      },
    ],
    why: "Firebird's aggregation router on Optimism 0x0c6134ab… (Firebird router list: docs.firebird.finance API spec as quoted in aggregator SDKs; rotki's firebird decoder) → firebird. Log 34: 24828647237813394885 OP wallet → Firebird's executor 0xdda1afe3 → WOOFi WooPPV2 0xd1778f9d (log 36; WooSwap log 38: fromAmount 24828647237813394885 OP, toAmount 33469428715795947 WETH) → log 37: 33469428715795947 WETH to the executor, which sends 16734714357897 to 0xf1bb85b4 (fee, log 41) and unwraps 33452694001438050 (Withdrawal log 43) for the wallet (internal rows). amountSol = the venue's figure 0.033469428715795947 (the executor's fee is separate).",
    ambiguous:
      "Firebird is an aggregator decisions.md does not name; 'firebird' needs its router in the chain's aggregators. Without it the venue applies: WOOFi is not in the slug table → unknown.",
    venues: [
      {
        address: '0xd1778f9df3eee5473a9640f13682e3846f61febc',
        kind: 'other',
        token0: '0x4200000000000000000000000000000000000042',
        token1: '0x4200000000000000000000000000000000000006',
        source: 'WOOFi WooPPV2 (WooSwap event); token0/token1 here are fromToken/toToken',
      },
    ],
  },
  {
    hash: '0xfbaacab45a9d788c993f08a65652e7a363a82ee2343152ffa41d07c5456d1fe7',
    chain: 'optimism',
    wallet: '0x8baf1bbae7c3cc1f9c5bf20b3d13bbfe674b01b7',
    trades: [
      {
        side: 'sell',
        token: 'DAI',
        tokenMint: '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1',
        amount: '23.093637251974648887',
        amountSol: null,
        dex: 'uniswap-v3',
      },
      { side: 'buy', token: 'USDC', tokenMint: '0x7f5c764cbc14f9669b88837ca1490cca17c31607', amount: '23.084554', amountSol: null, dex: 'uniswap-v3' },
    ],
    why: "Universal Router 0x3fc91a3a… (not an aggregator). Log 14: 23093637251974648887 DAI wallet → pool 0xbf16ef18 via Permit2 (Swap log 15: amount1 +23093637251974648887, amount0 −23084554); log 13: 23084554 USDC.e (tokens.json 'USDC', 6 dec) to the wallet. Pool = CREATE2 of UniswapV3Factory for USDC.e/DAI fee 100 → uniswap-v3 on both legs. No native leg → amountSol null.",
    venues: [
      {
        address: '0xbf16ef186e715668aa29cef57e2fd7f9d48adfe6',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        token1: '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xbf16ef186e715668aa29cef57e2fd7f9d48adfe6',
      },
    ],
  },
  {
    hash: '0x42074e2228be1716f84888f1993fa62443f591945b21dfbf159a64ae467990c4',
    chain: 'optimism',
    wallet: '0xd6f30247e6a8b8656a8b02ea37247f5eb939c626',
    trades: [],
    why: 'Negative: WETH.deposit (selector 0xd0e30db0) of 34500000000000000 wei (Deposit log 19). Wrapping the native coin is not a trade.',
  },
  {
    hash: '0xc50282f437bacfbeef00baf4dae0785a259f87294089b96f7a6363ad4928570e',
    chain: 'optimism',
    wallet: '0x1961425eb7467330380ea268d4b909c7975f79c6',
    trades: [
      {
        side: 'sell',
        token: 'wstETH',
        tokenMint: '0x1f32b1c2345538c0c6f582fcb022739c4a194ebb',
        amount: '1.404275039033980017',
        amountSol: '1.633943151167508707',
        dex: 'kyberswap',
      },
    ],
    why: "KyberSwap's MetaAggregationRouterV2 0x6131b5fa… → kyberswap (Swapped log 54). Log 45: 1404275039033980017 wstETH wallet → executor 0x11ddd59c → Balancer V2 Vault (log 50; Swap log 48, pool 0x7ca75bde…00d5: amountIn 1404275039033980017 wstETH, amountOut 1633943151167508707 WETH) → log 51: WETH to the executor, Withdrawal log 53, internal rows: 1633943151167508706 wei to the wallet (1 wei kept). amountSol = the Vault's figure 1.633943151167508707.",
    venues: [
      {
        address: '0xba12222222228d8ba445958a75a0704d566bf2c8',
        kind: 'balancer-v2',
        token0: '0x1f32b1c2345538c0c6f582fcb022739c4a194ebb',
        token1: '0x4200000000000000000000000000000000000006',
        source:
          "Balancer V2 Vault (same address on every chain it runs on); pool id 0x7ca75bdea9dede97f8b13c6641b768650cb837820002000000000000000000d5; token0/token1 here are the Swap's tokenIn/tokenOut",
      },
    ],
  },
  {
    hash: '0xc7c9b85ba66e6d262a5bf23afd75a49ffb6c079979587d5bbc1dddd647afc906',
    chain: 'optimism',
    wallet: '0x1a8c829ca8f9525ab2bc812460be4ba8f32b586e',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
        amount: '1.199279',
        amountSol: '0.000346292587874366',
        dex: 'odos',
      },
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        amount: '0.192067',
        amountSol: '0.000055634219127923',
        dex: 'odos',
      },
    ],
    why: "Odos Router V2 on Optimism 0xca423977… (DefiLlama's Odos adapter ODOS_V2_ROUTERS) → odos; a multi-input swap (event log 94). Two different tokens given, both with symbol USDC: log 84: 1199279 native USDC (0x0b2c…) → executor 0xa8376f53 → V3-shaped pool 0xff202313 (log 92; Swap log 90: amount0 +1199279, amount1 −346292587874366) → log 91: 346292587874366 WETH; log 85: 192067 USDC.e (0x7f5c…) → V2-shaped pair 0x066ff665 (Swap log 89: amount1In 192067, amount0Out 55634219127923) → log 87: 55634219127923 WETH. The executor unwraps 401926807002289 (Withdrawal log 93); the router keeps 40192680701 (fee) and pays 401886614321588 wei to the wallet. Two sells, each with its own venue's WETH figure; listed in the order of the wallet's outgoing transfers (log 84, then 85).",
    ambiguous: "The order of two sells in one transaction is not fixed by decisions.md beyond 'sell before buy'; this follows the wallet's transfer order.",
    venues: [
      {
        address: '0xff202313e26974cfc4ab0121c485ba54303a2e41',
        kind: 'v3',
        token0: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
        token1: '0x4200000000000000000000000000000000000006',
        source:
          'Uniswap-V3-shaped Swap; factory not established (no CREATE2 match for Uniswap V3, SushiSwap V3 or Velodrome Slipstream); the slug is odos regardless',
      },
      {
        address: '0x066ff66561f7670ce6ff5bbf40396ccc69b9e872',
        kind: 'v2',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        source: 'Uniswap-V2-shaped Swap; factory not established (no CREATE2 match for Uniswap V2, SushiSwap or Velodrome V1); the slug is odos regardless',
      },
    ],
  },
  {
    hash: '0xf1f2de24757b57df7b53090369020a527f9ea54d5a876fe85fe972643c50a7e2',
    chain: 'optimism',
    wallet: '0x4003eeb8e27d300c8420ecdedfb96c4de7a46e7e',
    trades: [],
    why: "Complex: a call to 0xf9cfb8a6 that works through 0x9558ff42 on a Velodrome EXA/WETH position: it claims 365707213860433614690 VELO from gauge 0x76ec1ef8 (log 9), swaps that VELO on Velodrome V2 into WETH and EXA (Swap logs 19, 27: the contract's own balance), adds EXA/WETH liquidity twice (Mint logs 37, 62) and hands the LP to the gauge (logs 41, 66); the wallet contributes 8230157245731733013 EXA (log 48) and WETH comes from Exactly's WETH market 0x3dc60be8 (eWETH; log 51). The wallet gives EXA and receives no other token: a liquidity add / position change, no trade.",
  },
  {
    hash: '0xa6271df026c97691148b0bcd53096cdbec91394b74f93e6e86ab046852f4a115',
    chain: 'optimism',
    wallet: '0xbf79b07d1311df96cddc53c71397271ae8a2b0e9',
    trades: [
      {
        side: 'sell',
        token: 'DAI',
        tokenMint: '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1',
        amount: '1.653522515434244221',
        amountSol: '0.000626208109106399',
        dex: 'uniswap-v3',
      },
    ],
    why: "LlamaZip's Optimism router 0x6f9d14cf… (rotki/rotki llamazip decoder; it swaps on Uniswap V3 itself, so the pool's venue). Log 9: 1653522515434244221 DAI wallet → pool 0x03af20bd (Swap log 10: amount1 +1653522515434244221, amount0 −626208109106399); log 8: 626208109106399 WETH to the router, Withdrawal log 11, internal rows pay it all to the wallet → amountSol 0.000626208109106399. Pool = CREATE2 of UniswapV3Factory for WETH/DAI fee 3000 → uniswap-v3.",
    venues: [
      {
        address: '0x03af20bdaaffb4cc0a521796a223f7d85e2aac31',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1',
        fee: 3000,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 3000)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x03af20bdaaffb4cc0a521796a223f7d85e2aac31',
      },
    ],
  },
  {
    hash: '0x6caae7d1a32abecf9dcc23c89e11fecfb9fccd2b21e718c0f62c6f001eb7a626',
    chain: 'optimism',
    wallet: '0xa521e425f37acc731651565b41ce3e5022274f4f',
    trades: [
      { side: 'buy', token: 'USDC', tokenMint: '0x7f5c764cbc14f9669b88837ca1490cca17c31607', amount: '12.918744', amountSol: '0.005', dex: 'uniswap-v3' },
    ],
    why: "LlamaZip's Optimism router 0x6f9d14cf…: the 5000000000000000 wei sent are wrapped (Deposit log 65) and paid into pool 0x85149247 (log 66; Swap log 67 amount0 +5000000000000000) → amountSol 0.005; log 64: 12918744 USDC.e to the router, log 68: to the wallet. Pool = CREATE2 of UniswapV3Factory for WETH/USDC.e fee 500 → uniswap-v3.",
    venues: [
      {
        address: '0x85149247691df622eaf1a8bd0cafd40bc45154a9',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x85149247691df622eaf1a8bd0cafd40bc45154a9',
      },
    ],
  },
  {
    hash: '0x076fdb84e51d17d2f9727c34f4b73cc1ffcd3671165764a0a287fe09a0cab36e',
    chain: 'optimism',
    wallet: '0xb3cbeff0336baa4863cb51238bd6c35bdaab3d84',
    trades: [
      {
        side: 'sell',
        token: 'USDC',
        tokenMint: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        amount: '5',
        amountSol: '0.001484508594027229',
        dex: 'openocean',
      },
    ],
    why: "OpenOcean's exchange router 0x6352a56c… (the same address on its chains; DefiLlama's OpenOcean adapter) → openocean. Log 6: 5000000 USDC.e wallet → router → Uniswap V3 WETH/USDC.e pool 0x85149247 (log 9; Swap log 10: amount1 +5000000, amount0 −1484508594027229); log 8: 1484508594027229 WETH to the router, Withdrawal log 11; internal rows: 1484145603280848 wei to the wallet and 362990746381 to 0xd9686d28 (OpenOcean's fee, not part of amountSol). amountSol = the pool's 0.001484508594027229.",
    venues: [
      {
        address: '0x85149247691df622eaf1a8bd0cafd40bc45154a9',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x85149247691df622eaf1a8bd0cafd40bc45154a9',
      },
    ],
  },
  {
    hash: '0xd3cbe70512bcc026a29aa2baaa5d8466b44589b2ec212e46504312b15ec1aa58',
    chain: 'optimism',
    wallet: '0x4e6428489612d68e8ffe37e93ef147b413229d9d',
    trades: [
      { side: 'sell', token: 'USDT', tokenMint: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58', amount: '250', amountSol: null, dex: 'paraswap' },
      { side: 'buy', token: 'OP', tokenMint: '0x4200000000000000000000000000000000000042', amount: '138.185435850061640894', amountSol: null, dex: 'paraswap' },
    ],
    why: 'ParaSwap Augustus V6.2 0x6a000f20… → paraswap. Log 62: 250000000 USDT wallet → Uniswap V3 USDC/USDT pool 0xa73c628e (fee 100; Swap log 64) → log 61: 249587480 USDC to Augustus → log 66: into Uniswap V3 USDC/OP pool 0xbce00644 (fee 500; Swap log 67) → log 65: 138185435850061640894 OP to Augustus → log 68: to the wallet. No native leg → amountSol null.',
    venues: [
      {
        address: '0xa73c628eaf6e283e26a7b1f8001cf186aa4c0e8e',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
        token1: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xa73c628eaf6e283e26a7b1f8001cf186aa4c0e8e',
      },
      {
        address: '0xbce00644e5535b68daf73d1528e8b08e6a14472c',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
        token1: '0x4200000000000000000000000000000000000042',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xbce00644e5535b68daf73d1528e8b08e6a14472c',
      },
    ],
  },
  {
    hash: '0xc670f3c5efbeaf47e1c14349be3dc0f6df136b69d651b26e3a2cf371b6a63f6f',
    chain: 'optimism',
    wallet: '0x158e5ae870c64c0b48dd062c62d160abf13391b6',
    trades: [
      {
        side: 'buy',
        token: 'OP',
        tokenMint: '0x4200000000000000000000000000000000000042',
        amount: '23.332130274980295506',
        amountSol: '0.01060905',
        dex: '1inch',
      },
    ],
    why: "Rainbow's router 0x00000000009726632680fb29d3f7a9734e3010e2 (a front end) forwarding to 1inch AggregationRouterV6 → 1inch. Of the 10700000000000000 wei sent Rainbow keeps 90950000000000 (its fee) and passes 10609050000000000 to 1inch (internal row), which wraps them (Deposit log 37) and pays them into Uniswap V3 WETH/OP pool 0xfc1f3296 (log 39; Swap log 40 amount0 +10609050000000000) → amountSol 0.01060905; log 38: 23332130274980295506 OP to Rainbow's router, log 41: to the wallet.",
    venues: [
      {
        address: '0xfc1f3296458f9b2a27a0b91dd7681c4020e09d05',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x4200000000000000000000000000000000000042',
        fee: 500,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 500)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0xfc1f3296458f9b2a27a0b91dd7681c4020e09d05',
      },
    ],
  },
  {
    hash: '0x8b5e0f8a9fa216fad3687ec221c2044a7f6755f299e185e5655c762ce9689ddb',
    chain: 'optimism',
    wallet: '0xba41b0e948d681e4dde13e4b153d89b611e33163',
    trades: [
      {
        side: 'buy',
        token: 'OP',
        tokenMint: '0x4200000000000000000000000000000000000042',
        amount: '3.213355834788683529',
        amountSol: '0.001437690225',
        dex: '0x',
      },
    ],
    why: "0x Settler 0x402867b6… (execute, selector 0x1fff991f; Settler v1.9 on Optimism in rotki/rotki's optimism zerox constants; found through 0x's deployer registry) → 0x. Of the 1450000000000000 wei sent, 10150000000000 and 2159775000000 go to fee recipients 0x86924c37 and 0xad01c20d (internal rows); 1437690225000000 are wrapped and unwrapped (Deposit log 31, Withdrawal log 32) and paid as native ETH into Uniswap V4's PoolManager 0x9a13f98c (internal row; Swap log 33 on pool 0x5ada7f34… = ETH/OP fee 500 tickSpacing 10, no hooks: amount0 −1437690225000000, amount1 +3213355834788683529) → amountSol 0.001437690225; log 34: OP to the Settler, log 35: 3213355834788683529 to the wallet.",
    venues: [
      {
        address: '0x5ada7f340cda3fbfd10ba302a6cfef36ca9ccc25522323e9bf8b53fb2ac42912',
        kind: 'v4',
        factory: '0x9a13f98cb987694c9f086b1f5eb990eea8264ec3',
        token0: '0x0000000000000000000000000000000000000000',
        token1: '0x4200000000000000000000000000000000000042',
        fee: 500,
        source:
          'Uniswap V4 pool id (PoolManager 0x9a13f98cb987694c9f086b1f5eb990eea8264ec3): keccak256(abi.encode(0x0000000000000000000000000000000000000000, 0x4200000000000000000000000000000000000042, 500, tickSpacing 10, hooks 0x0)) = 0x5ada7f340cda3fbfd10ba302a6cfef36ca9ccc25522323e9bf8b53fb2ac42912 (recomputed); no hooks',
      },
    ],
  },
  {
    hash: '0x8ed162b0235bcd00361e1c888628985d406c9307e8d1b9544ab979eb67e5b606',
    chain: 'optimism',
    wallet: '0x66c1158ae808bf4f7da691616edb1dfac1ddb58d',
    trades: [],
    why: 'Complex: Universal Router 0x851116d9… execute. The wallet sells 2029975300816905024 OP (log 62) through Uniswap V3 OP/USDT pool 0xb2ac2e5a (Swap log 63) and USDC/USDT pool 0xa73c628e (Swap log 66), but the 1468375 USDC output goes to 0x070143e4 (log 64), not to the wallet. The wallet only gives; nothing reaches its own accounts → no trade (a swap paying out to another address, like a payment).',
    ambiguous:
      "It could be read as a sell of OP (amountSol null, dex uniswap-v3) whose proceeds were sent elsewhere; decisions.md has the wallet's own accounts give and receive, so none.",
  },
  {
    hash: '0xb1501f9d4d188c769cd1bda14a5fe87e828470fbef968bb8e5e7b702344e8e73',
    chain: 'optimism',
    wallet: '0x09ae5e9e7e64f68fb9085ea4cda20dfb8428ba46',
    trades: [
      { side: 'sell', token: 'USDC', tokenMint: '0x7f5c764cbc14f9669b88837ca1490cca17c31607', amount: '1', amountSol: null, dex: 'uniswap-v4' },
      { side: 'buy', token: 'USDC', tokenMint: '0x0b2c639c533813f4aa9d7837caf62653d097ff85', amount: '0.999889', amountSol: null, dex: 'uniswap-v4' },
    ],
    why: "Universal Router 0x851116d9… (Optimism's, docs.uniswap.org v4 deployments) → Uniswap V4 PoolManager 0x9a13f98c…: Swap log 73 on pool 0x0535e61d… = (USDC 0x0b2c…, USDC.e 0x7f5c…, fee 100, tickSpacing 1, no hooks): amount0 +999889, amount1 −1000000. Log 74: 1000000 USDC.e wallet → PoolManager; log 76: 999889 USDC → wallet. A pool swap at the pool's price (not a 1:1 migration by the token's own migrator): a sell of USDC.e and a buy of USDC, no native leg → amountSol null.",
    venues: [
      {
        address: '0x0535e61d34d19bef9aaa21f9f9b0dfe4f2770246a1cab68838c830cde8b22b40',
        kind: 'v4',
        factory: '0x9a13f98cb987694c9f086b1f5eb990eea8264ec3',
        token0: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
        token1: '0x7f5c764cbc14f9669b88837ca1490cca17c31607',
        fee: 100,
        source:
          'Uniswap V4 pool id (PoolManager 0x9a13f98cb987694c9f086b1f5eb990eea8264ec3): keccak256(abi.encode(0x0b2c639c533813f4aa9d7837caf62653d097ff85, 0x7f5c764cbc14f9669b88837ca1490cca17c31607, 100, tickSpacing 1, hooks 0x0)) = 0x0535e61d34d19bef9aaa21f9f9b0dfe4f2770246a1cab68838c830cde8b22b40 (recomputed); no hooks',
      },
    ],
  },
  {
    hash: '0xe65d2fe847aa7e8143f01f67567f2659efa750eaa254421aeb27ba090df5ea2e',
    chain: 'optimism',
    wallet: '0x8605355ca4e07c1b2ceb548a052876a18028d7fd',
    trades: [],
    why: 'Negative: Uniswap V4 PositionManager 0x3c3ea4b5… modifyLiquidities adds 458611 USDC (log 11) and 799999094140701646 OP (log 12) to pool 0xe46d7b8f… (USDC/OP fee 3000; ModifyLiquidity log 10). A liquidity add is not a trade.',
  },
  {
    hash: '0x39db7fc22c237e649949443d596e065259d527bd1c093413cfcc14c2b9faf4a9',
    chain: 'optimism',
    wallet: '0x7a27075accbbc212b703fafbdc82146214ba0469',
    trades: [
      { side: 'sell', token: 'rETH', tokenMint: '0x9bcef72be871e61ed4fbbc7630889bee758eb81d', amount: '0.1', amountSol: '0.114269398031850807', dex: '1inch' },
    ],
    why: "WOOFi's WooRouterV2 0x4c4af8db… (woonetwork docs; its WooRouterSwap event, log 28, has swap type 1 = external swap) forwarding to 1inch AggregationRouterV5: the route passes through the 1inch router → 1inch. Log 19: 100000000000000000 rETH wallet → WooRouter → Uniswap V3 WETH/rETH pool 0x4905220c (log 23; Swap log 25: amount1 +100000000000000000, amount0 −114269398031850807) → log 22: 114269398031850807 WETH to the 1inch router, Withdrawal log 26, internal rows 1inch → WooRouter → wallet, 114269398031850807 wei each → amountSol 0.114269398031850807.",
    venues: [
      {
        address: '0x4905220ca9d1001daa7be72e877243f4996002e0',
        kind: 'v3',
        factory: '0x1f98431c8ad98523631ae4a59f267346ea31f984',
        token0: '0x4200000000000000000000000000000000000006',
        token1: '0x9bcef72be871e61ed4fbbc7630889bee758eb81d',
        fee: 100,
        source:
          'CREATE2(UniswapV3Factory 0x1f98431c8ad98523631ae4a59f267346ea31f984, salt keccak256(abi.encode(token0, token1, 100)), init code hash 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54) = 0x4905220ca9d1001daa7be72e877243f4996002e0',
      },
    ],
  },
  {
    hash: '0x58a9e5facbd5966078c810dae216973fc082ff329265dbc96eff5004772aaa28',
    chain: 'optimism',
    wallet: '0xa29b0d2f3b4555359a1bf684d700753b1b06cbc4',
    trades: [],
    why: "Complex, a LI.FI swap-and-bridge (diamond 0x1231deb6…): of the 3099292774392937 wei sent, 2978562349580289 are swapped by Magpie's router 0xa6e941ea (its Swap event, log 86) into 6268190 axlUSDC through Uniswap V3 and WOOFi (logs 68-85), handed to Squid/Axelar (0xce16f693, burned log 90) for Ethereum (LiFiTransferStarted log 92); 120730424812648 wei pay the bridge. The wallet receives nothing on Optimism: a bridge, no trade here.",
  },
];

/**
 * Symbol and decimals of the traded tokens that tokens.json has no recorded answer for (public token
 * lists and the tokens' own contracts; see each source). Facts for a replay's symbol()/decimals(),
 * kept apart from the expectations above.
 */
export const TOKENS: Record<string, Record<string, { symbol: string; decimals: number; source: string }>> = {
  arbitrum: {
    '0x2f2a2543b76a4166549f7aab2e75bef0aefc5b0f': {
      symbol: 'WBTC',
      decimals: 8,
      source: 'WBTC on Arbitrum, 8 decimals (token lists)',
    },
    '0x912ce59144191c1204e64559fe8253a0e49e6548': {
      symbol: 'ARB',
      decimals: 18,
      source: 'Arbitrum governance token ARB (arbitrum docs / token lists)',
    },
    '0xff970a61a04b1ca14834a43f5de4533ebddb5cc8': {
      symbol: 'USDC',
      decimals: 6,
      source: "bridged USDC.e; its symbol() answers 'USDC' (token lists give 'USDC', 6 decimals)",
    },
    '0xf97f4df75117a78c1a5a0dbb814af92458539fb4': {
      symbol: 'LINK',
      decimals: 18,
      source: 'Chainlink LINK on Arbitrum, 18 decimals (token lists)',
    },
    '0x5979d7b546e38e414f7e9822514be443a4800529': {
      symbol: 'wstETH',
      decimals: 18,
      source: 'Lido wstETH on Arbitrum, 18 decimals',
    },
    '0x09e18590e8f76b6cf471b3cd75fe1a1a9d2b2c2b': {
      symbol: 'AIDOGE',
      decimals: 6,
      source: 'ArbDoge AI (AIDOGE), 6 decimals (token lists; amounts consistent with 6)',
    },
    '0xdc8b6b6beab4d5034ae91b7a1cf7d05a41f0d239': {
      symbol: 'GMAC',
      decimals: 18,
      source: 'Gemach (GMAC) on Arbitrum, 18 decimals (token lists)',
    },
    '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9': {
      symbol: 'USD₮0',
      decimals: 6,
      source: "USDT upgraded in place to USDT0 (Jan 2025); symbol() now 'USD₮0', 'USDT' before; 6 decimals",
    },
    '0x0c880f6761f1af8d9aa9c466984b80dab9a8c9e8': {
      symbol: 'PENDLE',
      decimals: 18,
      source: 'PENDLE on Arbitrum, 18 decimals',
    },
    '0xcbb7c0000ab88b473b1f5afd9ef808440eed33bf': {
      symbol: 'cbBTC',
      decimals: 8,
      source: "Coinbase's cbBTC, 8 decimals",
    },
    '0x982239d38af50b0168da33346d85fb12929c4c07': {
      symbol: 'TROVE',
      decimals: 18,
      source: 'Arbitrove Governance Token (TROVE), 18 decimals (Nitro Cartel / token lists)',
    },
    '0x11cdb42b0eb46d95f990bedd4695a6e3fa034978': {
      symbol: 'CRV',
      decimals: 18,
      source: 'Curve CRV on Arbitrum, 18 decimals',
    },
    '0xc87b37a581ec3257b734886d9d3a581f5a9d056c': {
      symbol: 'ATH',
      decimals: 18,
      source: 'Aethir ATH (Axelar ITS token) on Arbitrum, 18 decimals',
    },
  },
  optimism: {
    '0x4200000000000000000000000000000000000042': {
      symbol: 'OP',
      decimals: 18,
      source: "Optimism's OP predeploy, 18 decimals (pool symbol 'vAMMV2-WETH/OP' in tokens.json)",
    },
    '0x9485aca5bbbe1667ad97c7fe7c4531a624c8b1ed': {
      symbol: 'EURA',
      decimals: 18,
      source: "Angle agEUR, renamed EURA (setNameAndSymbol); 18 decimals; 'agEUR' at pool creation ('vAMM-USDC/agEUR')",
    },
    '0x8ae125e8653821e851f12a49f7765db9a9ce7384': {
      symbol: 'DOLA',
      decimals: 18,
      source: "Inverse DOLA, 18 decimals (pool symbol 'sAMMV2-FRAX/DOLA')",
    },
    '0xb396b31599333739a97951b74652c117be86ee1d': {
      symbol: 'DUSD',
      decimals: 18,
      source: "Davos DUSD, 18 decimals (pool symbol 'sAMMV2-FRAX/DUSD')",
    },
    '0x9560e827af36c94d2ac33a39bce1fe78631088db': {
      symbol: 'VELO',
      decimals: 18,
      source: 'Velodrome V2 VELO, 18 decimals',
    },
    '0x1f32b1c2345538c0c6f582fcb022739c4a194ebb': {
      symbol: 'wstETH',
      decimals: 18,
      source: 'Lido wstETH on Optimism, 18 decimals',
    },
    '0x8c6f28f2f1a3c87f0f938b96d27520d9751ec8d9': {
      symbol: 'sUSD',
      decimals: 18,
      source: 'Synthetix sUSD on Optimism, 18 decimals',
    },
    '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1': {
      symbol: 'DAI',
      decimals: 18,
      source: 'DAI on Optimism, 18 decimals',
    },
    '0x9bcef72be871e61ed4fbbc7630889bee758eb81d': {
      symbol: 'rETH',
      decimals: 18,
      source: 'Rocket Pool rETH on Optimism, 18 decimals',
    },
  },
};

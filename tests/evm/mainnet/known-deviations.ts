/**
 * Mainnet transactions whose golden trades the decoder does not give yet, each with why. Their
 * tests are marked as failing (`it.fails`): they run, and one that starts to pass fails the suite
 * until its entry is removed here, so this list is always exactly what is still wrong.
 * docs/evm-routes.md ("Known limits") says the same to users.
 */
export const KNOWN_DEVIATIONS: Readonly<Record<string, string>> = {
  // A venue that moves the two tokens through two of its own accounts and emits no swap event:
  // the DAI goes into the PSM, the USDC comes out of its pocket, so no one account both took one
  // token and gave the other, and the flow graph sees a deposit and an unrelated payment.
  '0xce4944ffef9e76eafdb28b2729426ef0bae0bd3ebe0021725ead1b14c51cc068': "Sky's LitePSM: taker and payer are different accounts of one venue",
  // The same split inside a route: a market maker's USDC comes from another account of the maker
  // (0x20d7ee72) than the one that took the USDC.e (0x2943f5d7).
  '0x9c5debedbbd19fdcb1701e9905a2f0ebf31159eb8073f66de62ffda5680d1d14': 'a market maker paying from another of its accounts than the one it was paid into',
  // A pool whose LP token is a contract of its own (Curve's older pools): what the route put in by
  // add_liquidity goes to the pool, the LP token is minted by the token's contract, so the flow
  // graph sees a sink and a mint from nowhere. Here 1156 xDAI, wrapped, became 3pool LP tokens
  // that were swapped for EURe: the buy is found, its native figure is lost in that step.
  '0xbe029b6a84a3f310ca8bb692225c4a2b19a47b9a7f053bfaa765738c7592143f':
    'native figure lost through a Curve add_liquidity whose LP token is a separate contract',
  // The same step on the sell side, with a converter whose output (USDC.e) is minted by another
  // contract: every path of the sold USDC ends in a sink, so no venue is reached and the sale is missed.
  '0xb65c9b6566bf9d7f6e6313523560e0683f63bfadcadd9e4e8444819f96803401':
    'sold token reaches no venue: a Curve add_liquidity and a converter, both paid out by minting contracts',
};

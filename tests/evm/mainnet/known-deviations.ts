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
};

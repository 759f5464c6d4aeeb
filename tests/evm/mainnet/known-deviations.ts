/**
 * Mainnet transactions whose golden trades the decoder does not give yet, each with why. Their
 * tests are marked as failing (`it.fails`): they run, and one that starts to pass fails the suite
 * until its entry is removed here, so this list is always exactly what is still wrong.
 * docs/evm-routes.md ("Known limits") says the same to users.
 */
export const KNOWN_DEVIATIONS: Readonly<Record<string, string>> = {
  // A market maker that takes at one account (0x2943f5d7 took the USDC.e) and pays from another
  // (0x20d7ee72 paid the USDC), with a fill event of a shape no public source names: no one account
  // both took one token and gave the other, so the flow graph sees a deposit and an unrelated payment.
  '0x9c5debedbbd19fdcb1701e9905a2f0ebf31159eb8073f66de62ffda5680d1d14': 'a market maker paying from another of its accounts than the one it was paid into',
};

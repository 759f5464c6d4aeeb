import { describe, expect, it } from 'vitest';
import { isUnexplained, type BalanceDelta, type TransactionActivity } from '../../src/lib/core/activity.js';

/** decisions.md "Unexplained activity", the shared rule, on activities written by hand. */
const native = (raw: bigint): BalanceDelta => ({ tokenMint: null, raw, decimals: 9 });
const token = (mint: string, raw: bigint): BalanceDelta => ({ tokenMint: mint, raw, decimals: 6 });
const activity = (changes: BalanceDelta[], more: Partial<TransactionActivity> = {}): TransactionActivity => ({
  changes,
  incidentalNative: 0n,
  programs: [],
  knownNonTrade: false,
  ...more,
});

describe('isUnexplained', () => {
  it('SOL given, a token received, no trade: unexplained; a trade naming the token explains it', () => {
    const a = activity([native(-1_000_000_000n), token('MINT', 500n)]);
    expect(isUnexplained(a, [])).toBe(true);
    expect(isUnexplained(a, ['MINT'])).toBe(false);
  });

  it('token for token with a trade naming only one of them: the other is unnamed', () => {
    const a = activity([token('A', -10n), token('B', 20n)]);
    expect(isUnexplained(a, ['A'])).toBe(true);
    expect(isUnexplained(a, ['A', 'B'])).toBe(false);
  });

  it('one-sided changes are no swap: a transfer out, an airdrop in, SOL and a token both received', () => {
    expect(isUnexplained(activity([token('A', -10n)]), [])).toBe(false);
    expect(isUnexplained(activity([token('A', 10n)]), [])).toBe(false);
    expect(isUnexplained(activity([native(5n), token('A', 10n)]), [])).toBe(false);
  });

  it('a native decrease within the rent and tips paid is not a side: an airdrop claim that paid rent is no swap', () => {
    const claim = activity([native(-2_039_280n), token('A', 10n)], { incidentalNative: 2_039_280n });
    expect(isUnexplained(claim, [])).toBe(false);
    // More than the rent left: the wallet paid for the token.
    expect(isUnexplained({ ...claim, incidentalNative: 2_000_000n }, [])).toBe(true);
  });

  it('a known non-trade (liquidity, a deposit against a receipt token) is never unexplained', () => {
    expect(isUnexplained(activity([token('A', -10n), token('LP', 3n)], { knownNonTrade: true }), [])).toBe(false);
  });

  it('a single asset given is no swap, with or without a trade naming it', () => {
    expect(isUnexplained(activity([token('A', -10n)]), ['A'])).toBe(false);
    expect(isUnexplained(activity([token('A', -10n)]), [])).toBe(false);
  });
});

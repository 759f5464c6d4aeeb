import type { Trade } from '../core/trade.js';

/**
 * A trade's USD figures (decisions.md "USD values"): `nativeUsd`, the native coin's price in force
 * at the trade, and `valueUsd`, `amountSol` × `nativeUsd` rounded half-even to 6 decimals; both
 * exact decimal literals, null where unknown. A token-to-token trade (null `amountSol`) whose
 * other side in the same transaction is a USD stablecoin takes that leg's amount as its value, and
 * so does the stablecoin leg itself.
 */

/**
 * USD stablecoins by chain, in the form trades name tokens (EVM compared without case). Only
 * coins redeemable one for one against US dollars by their issuer, or DAI (held at a dollar by
 * its protocol); not algorithmic ones. Addresses as their issuers publish them.
 */
export const USD_STABLECOINS: Readonly<Record<string, readonly string[]>> = {
  sol: [
    'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', // USDC
    'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', // USDT
  ],
  eth: [
    '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', // USDC
    '0xdAC17F958D2ee523a2206206994597C13D831ec7', // USDT
    '0x6B175474E89094C44Da98b954EedeAC495271d0F', // DAI
  ],
  base: [
    '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', // USDC
    '0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA', // USDbC (bridged USDC)
    '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb', // DAI
  ],
  bsc: [
    '0x55d398326f99059fF775485246999027B3197955', // USDT
    '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', // USDC
  ],
  tron: [
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // USDT
    'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', // USDC
  ],
};

/** Whether `mint` is a USD stablecoin on `chain` (EVM addresses compared without case). */
export function isUsdStablecoin(chain: string, mint: string): boolean {
  const list = USD_STABLECOINS[chain];
  if (!list) return false;
  const m = mint.startsWith('0x') ? mint.toLowerCase() : mint;
  return list.some((s) => (s.startsWith('0x') ? s.toLowerCase() : s) === m);
}

/** A non-negative decimal literal as an integer and its scale. */
function scaled(s: string): { n: bigint; scale: number } {
  if (!/^\d+(\.\d+)?$/.test(s)) throw new RangeError(`not a non-negative decimal literal: ${s}`);
  const [whole, frac = ''] = s.split('.');
  return { n: BigInt(whole + frac), scale: frac.length };
}

/** `n / 10^scale` rounded half-even to 6 decimals, as a canonical literal (no trailing zeros). */
function roundHalfEven6(n: bigint, scale: number): string {
  let q: bigint;
  if (scale > 6) {
    const d = 10n ** BigInt(scale - 6);
    q = n / d;
    const r = n % d;
    if (r * 2n > d || (r * 2n === d && q % 2n === 1n)) q += 1n;
  } else q = n * 10n ** BigInt(6 - scale);
  const digits = q.toString().padStart(7, '0');
  const whole = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(-6).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** `amount` × `price`, exact, rounded half-even to 6 decimals. */
export function usdValue(amount: string, price: string): string {
  const a = scaled(amount);
  const p = scaled(price);
  return roundHalfEven6(a.n * p.n, a.scale + p.scale);
}

export interface UsdFigures {
  nativeUsd: string | null;
  valueUsd: string | null;
}

/**
 * The USD figures of one transaction's trades (all its legs, in any order), given the native
 * coin's price in force at its time (null when unknown). Results in the order of `legs`.
 */
export function usdOfTransaction(chain: string, legs: readonly Trade[], nativeUsd: string | null): UsdFigures[] {
  const stable = legs.map((t) => t.amount !== null && isUsdStablecoin(chain, t.tokenMint));
  return legs.map((t, i) => {
    if (t.amountSol !== null) return { nativeUsd, valueUsd: nativeUsd === null ? null : usdValue(t.amountSol, nativeUsd) };
    // Token to token: the stablecoin leg is worth its amount; a leg against exactly one
    // stablecoin leg of the other side is worth that leg's amount.
    if (stable[i]) return { nativeUsd, valueUsd: usdValue(t.amount!, '1') };
    const against = legs.filter((o, j) => j !== i && stable[j] && o.side !== t.side);
    return { nativeUsd, valueUsd: against.length === 1 ? usdValue(against[0].amount!, '1') : null };
  });
}

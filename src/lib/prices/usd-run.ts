import { parseTradeText } from '../core/trade.js';
import type { PricePoint } from './price-source.js';
import { usdOfTransaction, type UsdFigures } from './usd-values.js';

/**
 * `include=usd` over trades as the store keeps them (issue 22): a run of serialized trades (the
 * exact text of serializeTrade, joined by commas) gains `nativeUsd` and `valueUsd` on each trade,
 * the text of the eight spec fields left as it is, so amounts keep every digit.
 */

/** Splits a run into its trades' texts. Every trade starts with its signature, and a string value cannot hold an unescaped `"`. */
export function splitRun(json: string): string[] {
  if (!json) return [];
  const parts = json.split('},{"signature":');
  return parts.map((p, i) => (i > 0 ? '{"signature":' : '') + p + (i < parts.length - 1 ? '}' : ''));
}

/** The trade's text with the two USD fields appended, as literals like the amounts. */
export function withUsdFields(text: string, f: UsdFigures): string {
  return `${text.slice(0, -1)},"nativeUsd":${f.nativeUsd ?? 'null'},"valueUsd":${f.valueUsd ?? 'null'}}`;
}

export const unixSeconds = (blockTime: string): number => Math.floor(Date.parse(blockTime) / 1000);

export interface UsdRunOptions {
  chain: string;
  /**
   * The native coin's price at each time (unix seconds), in order; null when no price is known
   * there. Resolves to null when the prices could not be had (in time, or at all): the run then
   * goes out with null prices and is not complete.
   */
  pricesAt(times: readonly number[]): Promise<(PricePoint | null)[] | null>;
  /**
   * The stored text of every leg of these transactions (a run may end inside one): needed only
   * for a token-to-token trade, whose value comes from a stablecoin leg of the same transaction.
   */
  legsOf(signatures: readonly string[]): Promise<string[]>;
}

/** The run with USD fields on every trade, and whether every price was had. */
export async function usdRun(json: string, o: UsdRunOptions): Promise<{ json: string; complete: boolean }> {
  const texts = splitRun(json);
  if (!texts.length) return { json, complete: true };
  const trades = texts.map(parseTradeText);
  const times = [...new Set(trades.map((t) => unixSeconds(t.blockTime)))];
  const points = await o.pricesAt(times);
  const priceAt = new Map(times.map((t, i) => [t, points?.[i]?.price ?? null]));

  // Each transaction's legs as texts: figures are matched back by the leg's exact text, so two
  // legs of one transaction with the same side and token still get their own (identical texts
  // are identical legs, with identical figures).
  const bySignature = new Map<string, string[]>();
  texts.forEach((text, i) => {
    const list = bySignature.get(trades[i].signature);
    if (list) list.push(text);
    else bySignature.set(trades[i].signature, [text]);
  });
  // Only the run's first and last transactions can be cut by its bounds; their other legs are
  // read when a token-to-token leg needs them.
  const edges = [trades[0].signature, trades.at(-1)!.signature].filter((s, i, a) => a.indexOf(s) === i);
  const cut = edges.filter((s) => trades.some((t) => t.signature === s && t.amountSol === null));
  if (cut.length) {
    const whole = (await o.legsOf(cut)).map((text) => ({ text, signature: parseTradeText(text).signature }));
    for (const s of cut) {
      const legs = whole.filter((l) => l.signature === s).map((l) => l.text);
      // None found (the rows were replaced meanwhile): the run's own legs.
      if (legs.length) bySignature.set(s, legs);
    }
  }
  const byText = new Map<string, UsdFigures>();
  for (const legTexts of bySignature.values()) {
    const legs = legTexts.map(parseTradeText);
    const f = usdOfTransaction(o.chain, legs, priceAt.get(unixSeconds(legs[0].blockTime)) ?? null);
    legTexts.forEach((text, i) => byText.set(text, f[i]));
  }
  const out = texts.map((text) => withUsdFields(text, byText.get(text) ?? NO_PRICE));
  return { json: out.join(','), complete: points !== null };
}

const NO_PRICE: UsdFigures = { nativeUsd: null, valueUsd: null };

/** The run with null USD figures: what goes out when its prices could not be worked out at all. */
export function usdRunUnpriced(json: string): string {
  return splitRun(json)
    .map((text) => withUsdFields(text, NO_PRICE))
    .join(',');
}

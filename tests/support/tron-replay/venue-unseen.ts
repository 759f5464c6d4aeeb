import type { TronReplayWorld } from './index.js';

/** TRC-20 Transfer's topic (keccak of `Transfer(address,address,uint256)`), without 0x as TronGrid writes it. */
const TRANSFER = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** One synthesised trade as the world states it (what the full decoder gives for that transaction). */
type Expected = TronReplayWorld['synth']['expected'][number];

/**
 * A venue the decoder cannot read, made from real swaps: every `every`-th purchase of the wallet
 * paid with the call's TRX whose token arrives by a Transfer log loses its venue's own events, in
 * place (the TRC-20 Transfers, the TRX value and the internal transactions stay, as an unknown
 * venue's would). Both sides of each stay visible: a sale paid out by an internal transaction the
 * capture lacks, or a SunPump trade known only by its event, would leave one side unseen, and a
 * one-sided change is never listed. Returns the transactions changed, each with the trades the
 * full decoder states for it.
 */
export function hideVenueEvents(world: TronReplayWorld, every = 3): Map<string, Expected[]> {
  const bySig = new Map<string, Expected[]>();
  for (const t of world.synth.expected) bySig.set(t.signature, [...(bySig.get(t.signature) ?? []), t]);
  const visible = world.transactions.filter((tx) => {
    const trades = bySig.get(tx.record.txID);
    const value = Number(tx.record.raw_data?.contract?.[0]?.parameter?.value?.call_value ?? 0);
    return trades?.every((t) => t.side === 'buy') && value > 0 && (tx.info.log ?? []).some((l: { topics?: string[] }) => l.topics?.[0] === TRANSFER);
  });
  const chosen = new Set(visible.filter((_, i) => i % every === 0).map((tx) => tx.record.txID));
  const hidden = new Map<string, Expected[]>();
  for (const tx of world.transactions) {
    if (!chosen.has(tx.record.txID)) continue;
    tx.info = { ...tx.info, log: (tx.info.log ?? []).filter((l: { topics?: string[] }) => l.topics?.[0] === TRANSFER) };
    hidden.set(tx.record.txID, bySig.get(tx.record.txID)!);
  }
  return hidden;
}

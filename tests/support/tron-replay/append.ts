/**
 * New transactions for a replay that is already serving (follow streams, the live bench): a real
 * capture issued again later, by the same wallet, with the same calls, logs, internal transactions,
 * amounts and fees. Only what names and dates a transaction changes:
 *  - the signed raw data's `expiration` and `timestamp` (fields 8 and 14 of Transaction.raw) move
 *    by as much as the block time does, re-encoded in `raw_data_hex`, so the id, sha256 of those
 *    bytes, is new and still the hash of the raw data the record carries (as on the chain);
 *  - `blockNumber` / `block_timestamp` of the record and `blockNumber` / `blockTimeStamp` / `id` of
 *    its info;
 *  - internal transactions' hashes, which name them under their transaction: sha256 of the new id
 *    and the old hash (test values; nothing reads them but a chain would never repeat one).
 * Left as captured: the signature (over the old id: nobody checks it), the TaPoS reference
 * (`ref_block_bytes`/`ref_block_hash`, a block before the capture's) and every amount, so the
 * trade the copy must decode to is the capture's hand-checked one (tests/tron/golden.ts) at the
 * new id and block time.
 */
import { createHash } from 'node:crypto';
import type { TronReplayTx } from './fixtures.js';
import { encodeFields, readFields } from './protobuf.js';

/** Tron makes a block every 3 s. */
export const TRON_BLOCK_MS = 3_000;

export interface TronBlockSlot {
  block: number;
  /** Its block timestamp, ms. */
  ms: number;
}

/**
 * The block of time `ms` counted in 3 s blocks from a known one, and never at or below it (a
 * known block from the future of this clock, like the 2026 captures on a machine set earlier,
 * gives the next block).
 */
export function tronBlockAt(known: TronBlockSlot, ms: number): TronBlockSlot {
  const n = Math.max(1, Math.floor((ms - known.ms) / TRON_BLOCK_MS));
  return { block: known.block + n, ms: known.ms + n * TRON_BLOCK_MS };
}

/** The newest block among some transactions (e.g. a wallet's), as a slot. */
export function newestSlotOf(txs: Iterable<TronReplayTx>): TronBlockSlot {
  let best: TronBlockSlot | null = null;
  for (const t of txs) if (!best || t.record.blockNumber > best.block) best = { block: t.record.blockNumber, ms: t.record.block_timestamp };
  if (!best) throw new Error('no transaction to count blocks from');
  return best;
}

/** Transaction.raw: expiration (8) and timestamp (14), both int64 ms. */
const RAW_EXPIRATION = 8;
const RAW_TIMESTAMP = 14;

/** `raw_data_hex` with its expiration and timestamp moved by `deltaMs`. */
export function shiftRawDataHex(rawDataHex: string, deltaMs: number): string {
  const fields = readFields(Uint8Array.from(Buffer.from(rawDataHex, 'hex')));
  const moved = fields.map((f) =>
    f.wire === 0 && (f.n === RAW_EXPIRATION || f.n === RAW_TIMESTAMP) ? { ...f, value: (f.value as bigint) + BigInt(deltaMs) } : f,
  );
  return Buffer.from(encodeFields(moved)).toString('hex');
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/**
 * `tx` (a real capture, or a transaction derived from one) issued again at `at`: same sender,
 * calls, logs and amounts; new id, block and times (see the file comment). `origin` names it.
 */
export function reissueLater(tx: TronReplayTx, at: TronBlockSlot, origin = `reissued:${tx.origin}@${at.block}`): TronReplayTx {
  const delta = at.ms - tx.record.block_timestamp;
  const raw = tx.record.raw_data;
  const rawData = {
    ...raw,
    ...(raw.expiration !== undefined ? { expiration: raw.expiration + delta } : {}),
    ...(raw.timestamp !== undefined ? { timestamp: raw.timestamp + delta } : {}),
  };
  // A capture kept without its signed bytes (SunPump, the smart router) is named by its JSON's.
  const rawHex: string | undefined = tx.record.raw_data_hex === undefined ? undefined : shiftRawDataHex(tx.record.raw_data_hex, delta);
  const id = sha256(rawHex !== undefined ? Buffer.from(rawHex, 'hex') : JSON.stringify(rawData));
  if (id === tx.record.txID) throw new Error(`reissuing ${tx.record.txID} at its own time gives its own id`);
  const record = {
    ...tx.record,
    txID: id,
    raw_data: rawData,
    ...(rawHex !== undefined ? { raw_data_hex: rawHex } : {}),
    blockNumber: at.block,
    block_timestamp: at.ms,
    internal_transactions: (tx.record.internal_transactions ?? []).map((it: any) =>
      it.internal_tx_id ? { ...it, internal_tx_id: sha256(id + it.internal_tx_id) } : it,
    ),
  };
  const info = {
    ...tx.info,
    id,
    blockNumber: at.block,
    blockTimeStamp: at.ms,
    ...(tx.info.internal_transactions
      ? { internal_transactions: tx.info.internal_transactions.map((it: any) => (it.hash ? { ...it, hash: sha256(id + it.hash) } : it)) }
      : {}),
  };
  return { record, info, origin };
}

import type { RpcLog, RpcReceipt } from './rpc-types.js';
import { isTransferLog } from './transfer-log.js';

const sameMove = (a: RpcLog, b: RpcLog) =>
  a.topics[1].toLowerCase() === b.topics[1].toLowerCase() &&
  a.topics[2].toLowerCase() === b.topics[2].toLowerCase() &&
  BigInt(a.data || '0x0') === BigInt(b.data || '0x0');

/**
 * Some tokens keep one ledger behind two contracts, and every movement is logged by both: two
 * `Transfer`s with the same sender, recipient and amount, one right after the other (Monerium's
 * EURe on Gnosis since its v2, whose v1 and v2 addresses each log every move). Read as two tokens,
 * each such movement would give two trades of one purchase. In one transaction two contracts are
 * faces of one ledger when every `Transfer` either logs is paired that way with one of the other,
 * the same face first each time; the movement is then kept once, on the face that logs second
 * (for EURe the v1 address, the coin its pools hold and swap events name), and the other face's
 * `Transfer`s are dropped. Two distinct tokens read as faces by coincidence would need every move
 * of both to share sender, recipient and amount, which a swap's two sides never do (one goes to
 * the venue, the other comes from it). Returns the receipt itself when no contract has a twin.
 */
export function oneFacePerLedger(receipt: RpcReceipt): RpcReceipt {
  const { logs } = receipt;
  const transfers = new Map<string, number>();
  for (const l of logs) if (isTransferLog(l)) transfers.set(l.address.toLowerCase(), (transfers.get(l.address.toLowerCase()) ?? 0) + 1);
  if (transfers.size < 2) return receipt;
  const pairs = new Map<string, number>();
  const firsts = new Map<string, string>();
  for (let i = 0; i + 1 < logs.length; i++) {
    const [a, b] = [logs[i], logs[i + 1]];
    if (!isTransferLog(a) || !isTransferLog(b)) continue;
    const [fa, fb] = [a.address.toLowerCase(), b.address.toLowerCase()];
    if (fa === fb || !sameMove(a, b)) continue;
    pairs.set(`${fa}|${fb}`, (pairs.get(`${fa}|${fb}`) ?? 0) + 1);
    i++;
  }
  for (const [k, n] of pairs) {
    const [fa, fb] = k.split('|');
    if (transfers.get(fa) === n && transfers.get(fb) === n) firsts.set(fa, fb);
  }
  if (!firsts.size) return receipt;
  return { ...receipt, logs: logs.filter((l) => !(isTransferLog(l) && firsts.has(l.address.toLowerCase()))) };
}

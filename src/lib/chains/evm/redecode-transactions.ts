import type { RedecodeParameters, RedecodeResult } from '../../core/chain-source.js';
import { HistoryError } from '../../core/errors.js';
import { normalizeEvmAddress } from './address.js';
import type { TradesOf } from './trades-of.js';
import { newestListed } from '../../core/activity.js';
import { newestFirst } from '../../core/trade.js';
import type { TxMap } from './trade-position.js';

const HASH = /^0x[0-9a-f]{64}$/;
const TRADE_POSITION = /^(\d{12})\.(\d{6})$/;

/**
 * The stored transactions decoded again (ChainSource.redecode): no discovery, the named
 * hashes go through the walk's own stage after it (trades-of.ts: receipts in one batch, then the
 * enrich stages and the decoder). Each keeps the position it was stored with, which is its block
 * and index: a receipt placing it elsewhere (a reorganisation below the confirmation point, which
 * a stored trade never sits above) would move a stored row's key, so the stored place is kept and
 * the receipt's figures are read. A receipt the node does not return fails the whole call,
 * retryable: what is returned replaces every stored row of these transactions, so a partial answer
 * would drop trades.
 */
export async function redecodeTransactions(tradesOf: TradesOf, p: RedecodeParameters): Promise<RedecodeResult> {
  const wallet = normalizeEvmAddress(p.wallet);
  if (!wallet) throw new HistoryError('invalid_address', `not an EVM address: ${p.wallet}`);
  const txs: TxMap = new Map();
  for (const { signature, position } of p.transactions) {
    const hash = signature.toLowerCase();
    if (!HASH.test(hash)) throw new HistoryError('invalid_position', 'not an EVM transaction hash', { context: { signature } });
    const m = TRADE_POSITION.exec(position);
    if (!m) throw new HistoryError('invalid_position', 'not an EVM trade position', { context: { signature, position } });
    const place = { block: Number(m[1]), index: Number(m[2]) };
    const had = txs.get(hash);
    if (had && (had.block !== place.block || had.index !== place.index))
      throw new HistoryError('invalid_position', 'one transaction named with two positions', { context: { signature, position } });
    txs.set(hash, place);
  }
  if (txs.size === 0) return { trades: [], unexplained: [] };
  p.signal?.throwIfAborted();
  const { trades, unexplained } = await tradesOf({ wallet, txs, hashes: [...txs.keys()], signal: p.signal });
  return { trades: trades.sort(newestFirst), unexplained: unexplained.sort(newestListed) };
}

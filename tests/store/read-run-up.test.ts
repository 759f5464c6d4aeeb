import { beforeAll, describe, expect, it } from 'vitest';
import { parseTradeText } from '../../src/lib/core/trade.js';
import { splitRun } from '../../src/lib/prices/usd-run.js';
import type { Database } from '../../src/lib/server/store/database.js';
import { readRunUp, storeBatch } from '../../src/lib/server/store/trades.js';
import { getOrCreateWallet } from '../../src/lib/server/store/wallets.js';
import { tradesOf } from '../support/scripted-source.js';
import { storeForSuite } from '../support/suite-store.js';
import { BACKENDS, randomWallet } from '../support/test-server.js';

/**
 * Reading a wallet's trades oldest first (exports, live lines): whole transactions, legs in leg
 * order, however the row limit falls. The scripted wallet's tx 3 and 10 are two-leg swaps (sell
 * leg 0, buy leg 1); 12 transactions are 14 trades.
 */
describe.each(BACKENDS)('readRunUp on %s', (backend) => {
  const store = storeForSuite(backend);
  let db: Database;
  beforeAll(() => {
    db = store();
  });

  it('never splits a transaction and gives its legs in order, for every row limit', async () => {
    const address = randomWallet();
    const wallet = await getOrCreateWallet(db, 'sol', address);
    const all = Array.from({ length: 12 }, (_, i) => tradesOf(address, 11 - i)).flat();
    await storeBatch(db, wallet, all);
    const expected = Array.from({ length: 12 }, (_, i) => tradesOf(address, i).map((t) => `${t.signature}/${t.leg}`)).flat();
    for (const max of [1, 2, 3, 4, 5, 13, 100]) {
      const seen: string[] = [];
      let above = '';
      for (let reads = 0; reads < 20; reads++) {
        const run = await readRunUp(db, wallet.id, above, max);
        if (!run) break;
        const trades = splitRun(run.json).map(parseTradeText);
        expect(run.keys).toHaveLength(trades.length);
        // A read ends on a whole transaction: the next one starts a new signature.
        for (const t of trades) seen.push(`${t.signature}/${all.find((a) => a.signature === t.signature && a.side === t.side)!.leg}`);
        above = run.hi;
      }
      expect(seen, `max ${max}`).toEqual(expected);
    }
  });
});

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { apiOrder, DashboardDb, walletId, type BatchRow } from '../../src/lib/dashboard/db.js';
import { TradeMirror } from '../../src/lib/dashboard/trade-mirror.js';
import { makeTrades } from './fake-api.js';

describe('TradeMirror', () => {
  it('follows batches at both ends and starts over when rows disappear', async () => {
    const db = new DashboardDb('mirror-test');
    const id = walletId('sol', 'W');
    const batch = (epoch: number, from: number, n: number, prefix: string, wallet = id): BatchRow => ({
      walletId: wallet,
      order: apiOrder(epoch, from),
      trades: makeTrades(n, prefix),
    });
    const m = new TradeMirror(db, id);
    expect(await m.sync(0)).toBe(false);
    await db.batches.put(batch(0, 0, 5, 'a'));
    expect(await m.sync(5)).toBe(true);
    await db.batches.put(batch(0, 5, 3, 'b')); // the walk: older trades below
    await db.batches.put(batch(1, 0, 2, 'c')); // a refresh: newer trades above
    // Another wallet's rows never leak in.
    await db.batches.put(batch(9, 0, 2, 'x', 'sol:Z'));
    expect(await m.sync(10)).toBe(true);
    expect(m.rows.map((r) => r.signature)).toEqual(['c2', 'c1', 'a5', 'a4', 'a3', 'a2', 'a1', 'b3', 'b2', 'b1']);
    expect(new Set(m.rows.map((r) => r.order)).size).toBe(10);
    expect(await m.sync(10)).toBe(false);
    await db.batches.where('[walletId+order]').between([id, ''], [id, '\uffff']).delete();
    expect(await m.sync(0)).toBe(true);
    expect(m.rows).toEqual([]);
    db.close();
  });
});

describe('DashboardDb version 2', () => {
  it('moves version-1 trade rows into batches in delivery order', async () => {
    const { Dexie } = await import('dexie');
    const old = new Dexie('upgrade-test');
    old
      .version(1)
      .stores({ wallets: 'id, openedAt', trades: '[walletId+order], walletId', loads: 'walletId, status', settings: 'key', tokens: '[chain+mint]' });
    const trades = makeTrades(1500);
    await old.table('trades').bulkPut(trades.map((t, i) => ({ ...t, walletId: 'sol:W', order: apiOrder(0, i) })));
    old.close();
    const db = new DashboardDb('upgrade-test');
    const { tradesNewestFirst, stripRow } = await import('../../src/lib/dashboard/db.js');
    const rows = await tradesNewestFirst(db, 'sol:W');
    expect(rows.map(stripRow)).toEqual(trades);
    expect(await db.batches.count()).toBe(2);
    db.close();
  });
});

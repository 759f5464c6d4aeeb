import { describe, expect, it } from 'vitest';
import { isV4PoolKey } from '../../src/lib/chains/evm/decode/pool-key.js';
import { createStoreHintCache, createStoreKeyedCache } from '../../src/lib/server/store/settings.js';
import { openMemoryDatabase } from '../support/test-server.js';

describe('hints kept in the store', () => {
  it('keeps a learned log range per chain, and a later (smaller) one replaces it', async () => {
    const db = await openMemoryDatabase();
    try {
      const hints = createStoreHintCache(db);
      expect((await hints.get('eth', ['logsRange'])).size).toBe(0);
      await hints.put('eth', new Map([['logsRange', 10_000]]));
      await hints.put('base', new Map([['logsRange', 2_000]]));
      await hints.put('eth', new Map([['logsRange', 5_000]]));
      // A restart reads them back through a new cache on the same store.
      const again = createStoreHintCache(db);
      expect(await again.get('eth', ['logsRange', 'other'])).toEqual(new Map([['logsRange', 5_000]]));
      expect(await again.get('base', ['logsRange'])).toEqual(new Map([['logsRange', 2_000]]));
    } finally {
      await db.close();
    }
  });
});

describe('Uniswap V4 pool keys kept in the store', () => {
  it('reads back what was put, per chain, and ignores a malformed stored value', async () => {
    const db = await openMemoryDatabase();
    try {
      const cache = createStoreKeyedCache(db, 'v4-pool-key', isV4PoolKey);
      const id = '0x' + 'ab'.repeat(32);
      const key = { currency0: '0x' + '00'.repeat(20), currency1: '0x' + '11'.repeat(20), fee: 3000, tickSpacing: 60, hooks: '0x' + '00'.repeat(20) };
      await cache.put('base', new Map([[id, key]]));
      expect(await createStoreKeyedCache(db, 'v4-pool-key', isV4PoolKey).get('base', [id, '0x01'])).toEqual(new Map([[id, key]]));
      expect((await cache.get('eth', [id])).size).toBe(0);
      await db.query('UPDATE settings SET value = \'{"currency0":"x"}\' WHERE key = $1', [`v4-pool-key:base:${id}`]);
      expect((await cache.get('base', [id])).size).toBe(0);
    } finally {
      await db.close();
    }
  });
});

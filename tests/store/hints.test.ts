import { describe, expect, it } from 'vitest';
import { createStoreHintCache } from '../../src/lib/server/store/settings.js';
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

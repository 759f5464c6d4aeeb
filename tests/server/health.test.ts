import { describe, expect, it } from 'vitest';
import { getHealth, getReady } from '../../src/lib/server/api/get-health.js';
import { openMemoryDatabase } from '../support/test-server.js';

describe('health and readiness', () => {
  it('/healthz is ok without a store; /readyz is ready with a migrated store and 503 without one', async () => {
    expect(getHealth().status).toBe(200);
    const db = await openMemoryDatabase();
    const ready = await getReady({ db });
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; schemaVersion: number };
    expect(body.status).toBe('ready');
    expect(body.schemaVersion).toBeGreaterThanOrEqual(3);
    await db.close();
    const gone = await getReady({ db });
    expect(gone.status).toBe(503);
    expect(gone.headers.get('retry-after')).toBe('5');
  });
});

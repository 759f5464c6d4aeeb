import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainSource, RealtimeParameters } from '../../src/lib/core/chain-source.js';
import { watchTransfers } from '../../src/lib/chains/evm/realtime/watch-transfers.js';
import { openDatabase, type Database } from '../../src/lib/server/store/database.js';
import { migrate } from '../../src/lib/server/store/migrations.js';
import type { LoaderRegistry } from '../../src/lib/server/sync/loader-registry.js';
import { createRealtime } from '../../src/lib/server/sync/realtime/create-realtime.js';
import type { RpcTransport } from '../../src/lib/rpc/json-rpc.js';
import { until } from '../support/until.js';

/**
 * The server's side of the realtime stages (issue 24): which walkers a stage wakes and when it is
 * done. The loaders are a recording stand-in (what is under test is whom the realtime side asks to
 * refresh, not the walk that follows, which the follow tests run whole); the stage is a source's
 * own function that tells nothing, so every refresh seen here comes from the realtime side itself.
 */
function recordingLoaders(): { loaders: LoaderRegistry; refreshed: string[] } {
  const refreshed: string[] = [];
  const loaders = {
    get: async (chain: string, wallet: string) => ({ refresh: async () => void refreshed.push(`${chain}:${wallet}`) }),
  } as unknown as LoaderRegistry;
  return { loaders, refreshed };
}

/** A stage that tells nothing, and after its abort takes `lingerMs` to wind down (a request in flight). */
function quietSource(lingerMs = 0): ChainSource & { ended: number[] } {
  const ended: number[] = [];
  return {
    ended,
    async realtime({ signal }: RealtimeParameters) {
      await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      await new Promise((r) => setTimeout(r, lingerMs));
      ended.push(Date.now());
    },
  } as unknown as ChainSource & { ended: number[] };
}

describe('realtime stages in one process', () => {
  it('looks at a wallet once when it joins the stage (a trade between the history and the follow is not left for the next one)', async () => {
    const { loaders, refreshed } = recordingLoaders();
    const rt = await createRealtime({ loaders, sourceFor: () => quietSource() });
    const leave1 = rt.follow('sol', 'W1');
    await until('W1 looked at', () => refreshed.length === 1);
    const leave2 = rt.follow('sol', 'W2');
    // A second follower of W1: already in the stage, not looked at again.
    const leave1b = rt.follow('sol', 'W1');
    await until('W2 looked at', () => refreshed.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(refreshed).toEqual(['sol:W1', 'sol:W2']);
    leave1();
    leave1b();
    // W1 left and came back: it may have traded meanwhile.
    const leave1c = rt.follow('sol', 'W1');
    await until('W1 looked at again', () => refreshed.length === 3);
    expect(refreshed[2]).toBe('sol:W1');
    for (const leave of [leave1c, leave2]) leave();
    await rt.close();
  });
});

describe('realtime stages under a lease (the embedded store’s SQL)', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: 'memory://' });
    await migrate(db);
  });
  afterAll(() => db?.close());

  it('close() waits for the stages the lease’s hand-back stopped, so none wakes a loader after it', async () => {
    const { loaders } = recordingLoaders();
    const source = quietSource(150);
    const rt = await createRealtime({ loaders, sourceFor: () => source, shared: { db, holder: 'solo', ttlMs: 3_000 } });
    rt.follow('base', '0xabc');
    await until('the stage under the lease', () => rt.running().includes('base'));
    await rt.close();
    const closedAt = Date.now();
    expect(source.ended.length).toBe(1);
    expect(source.ended[0]).toBeLessThanOrEqual(closedAt);
  });
});

describe('the EVM stage’s WebSocket', () => {
  it('a WebSocket URL the platform refuses leaves the stage polling, and an aborted stage ends at once', async () => {
    expect(typeof globalThis.WebSocket).toBe('function');
    let heads = 0;
    const rpc = {
      call: async () => {
        heads++;
        return '0x10';
      },
    } as unknown as RpcTransport;
    const abort = new AbortController();
    // A fragment passes a ws:// check but the platform's WebSocket refuses it when constructed.
    const running = watchTransfers(
      { rpc, confirmation: 1, pollMs: 50, safetyPollMs: 60_000, maxRange: 100, wsUrl: 'ws://127.0.0.1:9/#fragment' },
      { wallets: () => [], onActivity: () => {}, signal: abort.signal },
    );
    await until('the poll going on', () => heads >= 3);
    const t0 = Date.now();
    abort.abort();
    await running;
    // Well before the 60 s safety poll would have ended a wait (in a few ms on an idle machine).
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { isHistoryError } from '../../src/lib/core/errors.js';
import { DECODE_TRANSACTION_BATCH, decodeForWallet, decodeTransactionBatch, type WalletTransaction } from '../../src/lib/chains/sol/decode/decode-batch.js';
import type { BatchReading } from '../../src/lib/rpc/read-batch.js';
import { createWorkerPool, type WorkerPool } from '../../src/lib/server/workers/pool.js';
import { loadSolanaFixtures, signersOf } from '../support/sol-replay/index.js';

const fixtures = loadSolanaFixtures();
const enc = new TextEncoder();

/** A getTransaction batch answer of every fixture, as a node writes it, ids 1.. */
function batchBody(): Uint8Array {
  return enc.encode(`[${fixtures.map((f, i) => `{"jsonrpc":"2.0","result":${f.text},"id":${i + 1}}`).join(',')}]`);
}

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('the worker pool', () => {
  it('decodes a batch in a worker thread exactly as on this thread, for every signer of every fixture', async () => {
    const logs: string[] = [];
    pool = createWorkerPool({ size: 1, log: (m) => logs.push(m) });
    const wallets = [...new Set(fixtures.flatMap((f) => signersOf(JSON.parse(f.text))))];
    expect(wallets.length).toBeGreaterThan(70);
    let trades = 0;
    for (const wallet of wallets) {
      const body = batchBody();
      const got = await pool.run<BatchReading<WalletTransaction | null>>(DECODE_TRANSACTION_BATCH, { body, wallet }, [body.buffer as ArrayBuffer]);
      // The bytes were moved, not copied: this thread no longer holds them.
      expect(body.byteLength).toBe(0);
      expect(got.kind).toBe('items');
      if (got.kind !== 'items') return;
      const want = fixtures.map((f, i) => ({ id: i + 1, result: decodeForWallet(JSON.parse(f.text), wallet) }));
      expect(got.items).toEqual(want);
      trades += got.items.reduce((n, it) => n + (it.result?.trades.length ?? 0), 0);
      expect(got.parseMs).toBeGreaterThan(0);
    }
    expect(trades).toBeGreaterThan(50);
    expect(pool.stats).toMatchObject({ inline: 0, workerFailures: 0 });
    expect(logs).toEqual(['Decoding in 1 worker thread(s).']);
  }, 60_000);

  it('reports a cut body and a body that is not an array as such', async () => {
    pool = createWorkerPool({ size: 1 });
    const full = batchBody();
    const cut = full.slice(0, Math.floor(full.length / 2));
    const r1 = await pool.run<BatchReading<unknown>>(DECODE_TRANSACTION_BATCH, { body: cut, wallet: 'x' });
    expect(r1.kind).toBe('cut');
    const single = enc.encode('{"jsonrpc":"2.0","error":{"code":-32600,"message":"batch refused"},"id":null}');
    const r2 = await pool.run<BatchReading<unknown>>(DECODE_TRANSACTION_BATCH, { body: single, wallet: 'x' });
    expect(r2).toEqual({ kind: 'whole', text: new TextDecoder().decode(single) });
  });

  it('keeps a decoder failure on its item, with the signature', async () => {
    pool = createWorkerPool({ size: 1 });
    // A transaction whose instructions are not an array makes the decoder throw.
    const tx = JSON.parse(fixtures[0].text);
    tx.transaction.message.instructions = 7;
    const body = enc.encode(`[{"jsonrpc":"2.0","result":${JSON.stringify(tx)},"id":1}]`);
    const inline = decodeTransactionBatch({ body: body.slice(), wallet: signersOf(tx)[0] });
    const r = await pool.run<BatchReading<unknown>>(DECODE_TRANSACTION_BATCH, { body, wallet: signersOf(tx)[0] });
    if (r.kind !== 'items' || inline.kind !== 'items') throw new Error('expected items');
    expect(r.items).toEqual(inline.items);
    expect(r.items[0].failed).toContain(`decoding ${tx.transaction.signatures[0]} failed`);
  });

  it('refuses an unknown task', async () => {
    pool = createWorkerPool({ size: 1 });
    const err = await pool.run<any>('no.such.task', {}).catch((e: any) => e);
    expect(isHistoryError(err, 'internal')).toBe(true);
  });

  it('fails the tasks of a worker that dies with a retryable error, and starts a new one', async () => {
    pool = createWorkerPool({ size: 1, entryUrl: new URL('../support/workers/exit-on-task.ts', import.meta.url).href });
    const err = await pool.run<any>(DECODE_TRANSACTION_BATCH, { body: new Uint8Array(0), wallet: 'x' }).catch((e: any) => e);
    expect(isHistoryError(err, 'internal')).toBe(true);
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('exit code 3');
    const again = await pool.run<any>(DECODE_TRANSACTION_BATCH, { body: new Uint8Array(0), wallet: 'x' }).catch((e: any) => e);
    expect(again.retryable).toBe(true);
    expect(pool.stats.workerFailures).toBe(2);
    expect(pool.stats.inline).toBe(0);
  });

  it('runs tasks on this thread when no worker can start, and says so once', async () => {
    const logs: string[] = [];
    pool = createWorkerPool({ size: 1, log: (m) => logs.push(m), entryUrl: new URL('../support/workers/fails-to-load.ts', import.meta.url).href });
    const body = batchBody();
    const first = await pool.run<any>(DECODE_TRANSACTION_BATCH, { body: body.slice(), wallet: 'x' }).catch((e: any) => e);
    // The task sent before the worker failed is failed as retryable; the transport sends it again.
    expect(first.retryable).toBe(true);
    const second = await pool.run<BatchReading<unknown>>(DECODE_TRANSACTION_BATCH, { body, wallet: 'x' });
    expect(second.kind).toBe('items');
    expect(pool.stats.inline).toBe(1);
    // Its 'error' and the 'exit' after it are one failure.
    expect(pool.stats.workerFailures).toBe(1);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('could not start');
  });

  it('with size 0 runs every task on this thread', async () => {
    pool = createWorkerPool({ size: 0 });
    const r = await pool.run<BatchReading<unknown>>(DECODE_TRANSACTION_BATCH, { body: batchBody(), wallet: 'x' });
    expect(r.kind).toBe('items');
    expect(pool.stats).toMatchObject({ tasks: 1, inline: 1 });
  });
});

/** The benchmark's HTTP client: a stream read on a thread of its own, and a median. */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { eachLine, TEST_KEY } from '../support/test-server.js';

export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * The client reads the stream on a thread of its own, as curl would in a process of its own: on
 * the server's thread it would see the first line only after whatever the server does next (the
 * walk's next batch launches, the next read; measured up to 15 ms after the line was written),
 * which no real client waits for. Times are taken on the client's thread, from the request to
 * the line, after a first request that loads the thread's fetch.
 */
export async function streamFromAnotherThread(
  url: string,
  key: string,
  { untilFirstLine = false } = {},
): Promise<{ firstLineMs: number; indexMs: number; final: any }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      // Node loads its fetch on first use (tens of ms): not part of what a client waits for.
      await (await fetch(new URL('/v1/chains', workerData.url))).text();
      const t0 = performance.now();
      const res = await fetch(workerData.url, { headers: { authorization: 'Bearer ' + workerData.key } });
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = '', firstLineMs = 0, final = null;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = text.indexOf('\\n')) >= 0) {
          const line = text.slice(0, nl);
          text = text.slice(nl + 1);
          if (!firstLineMs && line.startsWith('{"trades":[{')) {
            firstLineMs = performance.now() - t0;
            if (workerData.untilFirstLine) {
              await reader.cancel();
              return parentPort.postMessage({ firstLineMs, indexMs: 0, final: null });
            }
          }
          if (line.startsWith('{"complete"')) final = JSON.parse(line);
        }
      }
      parentPort.postMessage({ firstLineMs, indexMs: performance.now() - t0, final });
    })().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
  `;
  const worker = new Worker(code, { eval: true, workerData: { url, key, untilFirstLine } });
  try {
    const r = await new Promise<any>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (r.error) throw new Error(`the client thread failed: ${r.error}`);
    return r;
  } finally {
    await worker.terminate();
  }
}

/** Reads a stream to its end, counting trades without keeping them (so RSS reflects the server). */
export async function drainStream(url: string, key = TEST_KEY): Promise<{ trades: number; ms: number; final: any }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  let trades = 0;
  let final: any = null;
  await eachLine(res, (l) => {
    if (l.startsWith('{"trades":[')) {
      // Count trades by their signature fields rather than parsing the whole line.
      let i = 0;
      while ((i = l.indexOf('"signature":', i) + 1) > 0) trades++;
    } else if (l) final = JSON.parse(l);
  });
  return { trades, ms: performance.now() - t0, final };
}

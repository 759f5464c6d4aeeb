/**
 * `npm run bench`: every benchmark of the project, with its figures, its target and the ratio.
 * Set BENCH_ONLY=api,memory,sol-decode,activity,sol-index,tron,evm,evm-discovery,evm-v4,scale-out,dashboard,dashboard-pnl,prices,live to run some; TEST_DATABASE_URL adds the PostgreSQL runs.
 */
import { availableParallelism } from 'node:os';
import { benchApi } from './api.js';

const only = process.env.BENCH_ONLY?.split(',');
const want = (name: string) => !only || only.includes(name);
const rows: string[] = [];
function report(name: string, value: number, unit: string, target: number, better: 'higher' | 'lower') {
  const ok = better === 'higher' ? value >= target : value <= target;
  const ratio = value === target ? 1 : better === 'higher' ? value / target : target / value;
  const line = `${name.padEnd(58)} ${value.toFixed(value < 10 ? 2 : 0).padStart(12)} ${unit.padEnd(10)} target ${better === 'higher' ? '>=' : '<='} ${String(target).padEnd(9)} ${ok ? 'ok  ' : 'MISS'} x${ratio.toFixed(2)}`;
  rows.push(line);
  console.log(line);
}

async function main() {
  if (want('api')) {
    const backends: ('pglite' | 'postgres')[] = ['pglite'];
    if (process.env.TEST_DATABASE_URL) backends.push('postgres');
    for (const b of backends) {
      console.log(`api on ${b}: storing 100,000 and 1,000,000 trades through the loader...`);
      const r = await benchApi(b, console.log);
      report(`[${b}] 1,000-row page over HTTP, p50`, r.pageP50Ms, 'ms', b === 'pglite' ? 20 : 8, 'lower');
      report(`[${b}] 1,000-row page over HTTP, p99`, r.pageP99Ms, 'ms', b === 'pglite' ? 60 : 25, 'lower');
      report(`[${b}] full stream of 100,000 stored trades over HTTP`, r.streamTradesPerSec, 'trades/s', b === 'pglite' ? 100_000 : 200_000, 'higher');
      report(`[${b}] RSS growth streaming ${r.bigWalletTrades.toLocaleString('en')} trades`, r.rssGrowthMb, 'MB', 150, 'lower');
      console.log(
        `  (loading through the scripted source: ${Math.round(r.loadTradesPerSec)} trades/s; RSS before the 1,000,000-trade stream ${Math.round(r.rssBaseMb)} MB, client and server in one process)`,
      );
    }
  }
  if (want('live')) {
    const { benchLive } = await import('./live.js');
    console.log('live: the EVM realtime stage on anvil, a Tron poll, 500 idle follow streams...');
    const r = await benchLive(console.log);
    report('[sol] transaction served → wallet told, logsSubscribe, p95', r.solWsP95Ms, 'ms', 2_000, 'lower');
    report('[sol] the same with the WebSocket dropped (10 s poll), p95', r.solPollP95Ms, 'ms', 12_000, 'lower');
    report('[evm] requests per new confirmed range, 1,000 followed wallets', r.evmRequestsPerRange, 'requests', 1, 'lower');
    report('[evm] block confirmed → wallets told (median, 2 s poll)', r.evmNoticeMs, 'ms', 2_000, 'lower');
    report('[evm] block confirmed → wallets told, newHeads subscription, p95', r.evmHeadsNoticeP95Ms, 'ms', 2_000, 'lower');
    report('[tron] requests per followed wallet per 3 s poll, nothing new', r.tronRequestsPerPoll, 'requests', 2, 'lower');
    report('[tron] solidified transaction → live line, p95 (3 s poll)', r.tronNoticeP95Ms, 'ms', 5_000, 'lower');
    console.log(`  (one TronGrid key at 15 requests/s serves ${r.tronWalletsPerKey} followed wallets at a 3 s poll)`);
    report(`RSS per idle follow stream (${r.followStreams} open)`, r.followStreamRssKb / 1024, 'MB', 1, 'lower');
  }
  if (want('memory')) {
    const { benchMemory } = await import('./memory.js');
    for (const store of ['embedded', 'postgres'] as const) {
      console.log(`memory on the ${store} store: the server in a process of its own...`);
      const r = await benchMemory(store, console.log);
      report(`[${store}] idle RSS of the server`, r.idleMb, 'MB', store === 'embedded' ? 250 : 150, 'lower');
      report(`[${store}] RSS added per open stream (200 streams, 20 wallets)`, r.perStreamMb, 'MB', 1, 'lower');
      report(`[${store}] RSS after loading ${r.millionTrades.toLocaleString('en')} trades`, r.afterMillionMb, 'MB', 600, 'lower');
      console.log(`  (peak while 200 streams were open ${Math.round(r.streamsPeakMb)} MB; peak while loading ${Math.round(r.loadPeakMb)} MB)`);
      if (r.recoverMs !== undefined) report('[postgres] database back → history answered again', r.recoverMs, 'ms', 5_000, 'lower');
    }
  }
  if (want('sol-decode')) {
    const { benchSolanaDecode } = await import('./sol-decode.js');
    const r = await benchSolanaDecode();
    console.log(`sol decode: JSON.parse alone of the same bytes runs at ${Math.round(r.parseOnlyPerSec)} tx/s`);
    report('[sol] decoded transactions per second, one core', r.txPerSec, 'tx/s', 10_000, 'higher');
    report('[sol] decode rate / JSON.parse rate', r.txPerSec / r.parseOnlyPerSec, 'ratio', 0.55, 'higher');
  }
  if (want('activity')) {
    const { benchActivityCost } = await import('./activity-cost.js');
    const r = await benchActivityCost();
    console.log(
      `activity: sol ${Math.round(r.solWithout)} tx/s decoded without balance changes, ${Math.round(r.solWith)} with; evm ${Math.round(r.evmWithout)} receipts/s without, ${Math.round(r.evmWith)} with`,
    );
    report('[sol] decode throughput with balance changes / without', r.solWith / r.solWithout, 'ratio', 0.9, 'higher');
    report('[evm] decode throughput with balance changes / without', r.evmWith / r.evmWithout, 'ratio', 0.9, 'higher');
  }
  if (want('sol-index')) {
    const { benchSolanaIndex } = await import('./sol-index.js');
    const { describeCpu } = await import('./sol-cpu.js');
    const r = await benchSolanaIndex({ trades: 10_000, latencyMs: 50, batchSize: 100, maxInFlight: 8 });
    console.log(
      `sol index: ${r.trades} trades, ${r.signaturePages} signature pages, ${r.transactionBatches} tx batches, ${r.httpRequests} HTTP requests, wall ${Math.round(r.wallMs)} ms; ` +
        `limit ${Math.round(r.limitMs)} ms = max(network ${Math.round(r.networkBoundMs)}, parse ${Math.round(r.parseMs)} + decode ${Math.round(r.decodeMs)}) ` +
        `(serial: network + parse + decode = ${Math.round(r.serialLimitMs)} ms, x${(r.wallMs / r.serialLimitMs).toFixed(2)})`,
    );
    console.log(`  (not in the limit: finding the items ${Math.round(r.scanMs)} ms, GC pauses ${Math.round(r.gcMs)} ms; ${describeCpu(r.cpu)})`);
    report('[sol] index 10,000-trade wallet, source walk on one thread (browser)', r.wallMs / r.limitMs, 'x limit', 1.5, 'lower');
    const { benchSolanaHttp } = await import('./sol-http.js');
    const h = await benchSolanaHttp({ trades: 10_000, latencyMs: 50 });
    console.log(
      `sol via HTTP: cold 10,000-trade wallet fetched, decoded, stored and streamed in ${Math.round(h.indexMs)} ms; ` +
        `pipelined limit ${Math.round(h.limitMs)} ms = max(network ${Math.round(h.networkBoundMs)}, parse ${Math.round(h.parseMs)} + decode ${Math.round(h.decodeMs)}, store ${Math.round(h.storeMs)}); ` +
        `serial limit ${Math.round(h.serialLimitMs)} ms = max(network, parse + decode + store), x${(h.indexMs / h.serialLimitMs).toFixed(2)}`,
    );
    console.log(`  (${describeCpu(h.cpu)})`);
    report('[sol] index 10,000-trade wallet through the endpoint / its pipelined limit', h.indexMs / h.limitMs, 'x limit', 1.3, 'lower');
    console.log(
      `sol first line: ${h.firstLines.map((ms) => ms.toFixed(0)).join(', ')} ms on ${h.firstLines.length} cold wallets in turn, on one server ` +
        `(the first is also that server's first request); median ${h.firstLineMs.toFixed(0)} ms`,
    );
    report('[sol] first NDJSON batch line of a cold wallet, in 50 ms latencies', h.firstLineRoundTrips, 'RTTs', 3, 'lower');
    report(`[sol] the same, in measured round trips (${h.measuredRttMs.toFixed(1)} ms)`, h.firstLineMeasuredRtts, 'RTTs', 3, 'lower');
  }
  if (want('tron')) {
    const { benchTron } = await import('./tron.js');
    const r = await benchTron({ trades: 10_000, latencyMs: 50, maxInFlight: 8 });
    console.log(
      `tron: ${r.trades} trades, ${r.httpRequests} TronGrid requests (${r.pages} account pages, ${r.infos} infos, ${r.tokenLookups} token look-ups for ${r.distinctTokens} tokens); ` +
        `indexed and streamed in ${Math.round(r.indexMs)} ms; limit ${Math.round(r.limitMs)} ms = max(network ${Math.round(r.networkBoundMs)}, ` +
        `parse ${Math.round(r.parseMs)} + decode ${Math.round(r.decodeMs)} + store ${Math.round(r.storeMs)})`,
    );
    report('[tron] TronGrid requests per trade, token look-ups apart', r.requestsPerTradeBeforeLookups, 'requests', 1.05, 'lower');
    report('[tron] token look-ups per distinct token', r.tokenLookups / r.distinctTokens, 'look-ups', 1, 'lower');
    report('[tron] index 10,000-trade wallet through the endpoint / its limit', r.indexMs / r.limitMs, 'x limit', 1.5, 'lower');
  }
  if (want('evm-discovery')) {
    const { benchEvmDiscovery } = await import('./evm-discovery.js');
    const r = await benchEvmDiscovery();
    console.log(`evm-discovery: ${r.spread[0].trades} trades on a ${r.realBlocks}-block anvil chain served as 24,000,000 blocks (block r as r×${r.factor})`);
    for (const [label, runs] of [
      ['spread over the chain', r.spread],
      ['all at its beginning', r.early],
    ] as const) {
      for (const x of runs) {
        console.log(
          `  ${label}, ${x.path}: ${x.httpRequests} HTTP requests, ${x.calls} calls (${x.refused} refused), ${x.roundTripsBeforeFirstTrade.toFixed(1)} round trips before the first trade batch, ${Math.round(x.ms)} ms`,
        );
      }
    }
    const [ots, logs, cap] = r.spread;
    report('[evm-discovery] 24M blocks, ots: HTTP requests of the whole walk', ots.httpRequests, 'requests', 5, 'lower');
    report('[evm-discovery] 24M blocks, logs, no cap: HTTP requests', logs.httpRequests, 'requests', 60, 'lower');
    report('[evm-discovery] 24M blocks, logs, 10,000-block cap: HTTP requests', cap.httpRequests, 'requests', 150, 'lower');
    report('[evm-discovery] 24M blocks, logs, 10,000-block cap: calls refused', (100 * cap.refused) / cap.calls, '%', 1, 'lower');
    report(
      '[evm-discovery] round trips before the first trade batch (worst path)',
      Math.max(ots.roundTripsBeforeFirstTrade, logs.roundTripsBeforeFirstTrade, cap.roundTripsBeforeFirstTrade),
      'RTTs',
      4,
      'lower',
    );
  }
  if (want('evm-v4')) {
    const { benchEvmV4 } = await import('./evm.js');
    const r = await benchEvmV4();
    console.log(`evm-v4: ${r.trades} trades, ${r.calls} calls, ${r.httpRequests} HTTP requests, ${Math.round(r.ms)} ms`);
    report('[evm-v4] RPC calls per trade (V4, Balancer, mixed routes)', r.rpcCallsPerTrade, 'calls', 1.3, 'lower');
    report('[evm-v4] HTTP requests per trade', r.httpRequestsPerTrade, 'requests', 0.1, 'lower');
  }
  if (want('scale-out')) {
    const { benchScaleOut } = await import('./scale-out.js');
    console.log('scale-out: instances of the server on one PostgreSQL...');
    const r = await benchScaleOut(console.log);
    report('[scale-out] 1,000-row pages/s, three instances vs one (32 clients)', r.pagesPerSecond.three / r.pagesPerSecond.one, 'x', 0.9, 'higher');
    console.log(
      `  (one: ${Math.round(r.pagesPerSecond.one)} pages/s p99 ${r.p99Ms.one.toFixed(1)} ms; three: ${Math.round(r.pagesPerSecond.three)} pages/s p99 ${r.p99Ms.three.toFixed(1)} ms)`,
    );
    report('[scale-out] 5xx answers under the page load', r.errors5xx, 'answers', 0, 'lower');
    report('[scale-out] trades loaded/s, two instances vs one (50 ms RPC pace)', r.tradesPerSecond.two / r.tradesPerSecond.one, 'x', 1.6, 'higher');
    console.log(`  (one: ${Math.round(r.tradesPerSecond.one)} trades/s; two: ${Math.round(r.tradesPerSecond.two)} trades/s)`);
    report('[scale-out] extra database round trips per page, three instances vs one', r.roundTripsPerPage.three - r.roundTripsPerPage.one, 'trips', 1, 'lower');
    console.log(`  (round trips per page: one ${r.roundTripsPerPage.one.toFixed(2)}, three ${r.roundTripsPerPage.three.toFixed(2)})`);
  }
  for (const [name, file, fn] of [
    ['evm', './evm.js', 'benchEvm'],
    ['dashboard', './dashboard.js', 'benchDashboard'],
  ] as const) {
    if (!want(name)) continue;
    const mod: any = await import(file);
    const r = await mod[fn]();
    for (const [k, v] of Object.entries(r)) console.log(`${name}: ${k} = ${typeof v === 'number' ? (v as number).toFixed(3) : v}`);
    if (name === 'evm') {
      report('[evm] RPC calls per trade', r.rpcCallsPerTrade, 'calls', 1.2, 'lower');
      report('[evm] HTTP requests per trade', r.httpRequestsPerTrade, 'requests', 0.1, 'lower');
      console.log(`[evm] decoded trades per second: ${Math.round(r.tradesPerSec)}`);
    } else {
      report('[dashboard] worker ingest into IndexedDB', r.ingestTradesPerSec, 'trades/s', 20_000, 'higher');
      report('[dashboard] first row painted after its batch', r.firstRowMs, 'ms', 100, 'lower');
      report('[dashboard] p95 frame time scrolling 100,000 rows', r.p95FrameMs, 'ms', 33, 'lower');
      console.log(`[dashboard] table rows in the DOM while scrolling: ${r.domRows}`);
    }
  }
  if (want('dashboard-pnl')) {
    const { benchDashboardPnl } = await import('./dashboard-pnl.js');
    const r = await benchDashboardPnl();
    for (const [k, v] of Object.entries(r)) console.log(`dashboard-pnl: ${k} = ${v}`);
    report('[dashboard] PnL of 100,000 trades in the worker, average', r.averageMs, 'ms', 300, 'lower');
    report('[dashboard] PnL of 100,000 trades in the worker, FIFO', r.fifoMs, 'ms', 300, 'lower');
    report('[dashboard] p95 frame time scrolling while the PnL computes', r.p95FrameMs, 'ms', 33, 'lower');
    console.log(
      `[dashboard] (reading the wallet from IndexedDB first: ${r.firstReadMs} ms; click to FIFO figures ${r.switchToFifoMs} ms, back to average ${r.switchBackMs} ms; p95 frame with the worker idle ${r.p95FrameIdleMs} ms; load average ${r.loadAverage} on ${availableParallelism()} cores)`,
    );
  }
  if (want('prices')) {
    const { benchPrices } = await import('./prices.js');
    const r = await benchPrices(console.log);
    for (const [name, w] of [
      ['logs', r.logs],
      ['getRoundData', r.bisection],
    ] as const) {
      console.log(
        `prices by ${name}: ${r.trades.toLocaleString('en')} trades over a year of ${r.rounds.toLocaleString('en')} hourly rounds: ${w.firstRequests} HTTP requests in ${Math.round(w.firstMs)} ms; ` +
          `a second wallet over the same span ${w.secondRequests}; the same in a new process on the same store ${w.newProcessRequests}`,
      );
    }
    report('[prices] HTTP requests for a year of 10,000 trades, by logs', r.logs.firstRequests, 'requests', 50, 'lower');
    report('[prices] HTTP requests per 100 trades, a year by getRoundData', (r.bisection.firstRequests * 100) / r.trades, 'requests', 1, 'lower');
    report(
      '[prices] HTTP requests for a second wallet over the same span',
      Math.max(r.logs.secondRequests, r.bisection.secondRequests),
      'requests',
      0,
      'lower',
    );
    const { benchUsdFirstLine } = await import('./usd-first-line.js');
    const u = await benchUsdFirstLine(console.log);
    console.log(
      `prices: first line of a stored wallet's stream: ${u.plainMs.toFixed(1)} ms without include=usd, ${u.usdMs.toFixed(1)} ms with it (PRICE_WAIT_MS ${u.waitMs})`,
    );
    report('[prices] first line with include=usd, minus without it', u.usdMs - u.plainMs, 'ms', u.waitMs, 'lower');
  }
  console.log('\nsummary');
  for (const r of rows) console.log(r);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);

/**
 * `npm run bench`: every benchmark of the project, with its figures, its target and the ratio.
 * Set BENCH_ONLY=api,sol-decode,... to run some; TEST_DATABASE_URL adds the PostgreSQL runs.
 */
import { benchApi } from './api.js';

const only = process.env.BENCH_ONLY?.split(',');
const want = (name: string) => !only || only.includes(name);
const rows: string[] = [];
function report(name: string, value: number, unit: string, target: number, better: 'higher' | 'lower') {
  const ok = better === 'higher' ? value >= target : value <= target;
  const ratio = better === 'higher' ? value / target : target / value;
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
      console.log(`  (loading through the scripted source: ${Math.round(r.loadTradesPerSec)} trades/s)`);
    }
  }
  for (const [name, file, fn] of [
    ['sol-decode', './sol-decode.js', 'printSolanaDecodeBench'],
    ['sol-index', './sol-index.js', 'printSolanaIndexBench'],
    ['evm', './evm.js', 'printEvmBench'],
    ['dashboard', './dashboard.js', 'printDashboardBench'],
  ] as const) {
    if (!want(name)) continue;
    const mod = await import(file).catch(() => null);
    if (mod?.[fn]) await mod[fn](report);
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

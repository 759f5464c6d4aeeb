/**
 * A server process whose scripted source decodes with a given decoder version, for the tests that
 * kill it in the middle of a re-decode (tests/api/redecode.test.ts).
 * Env: DATA_DIR or DATABASE_URL, SCRIPT_TRANSACTIONS, SCRIPT_VERSION, SCRIPT_REDECODE_DELAY_MS,
 * SCRIPT_REDECODE_STALL_AFTER (redecode calls past it never answer),
 * plus the server's own. Prints `{"url": ...}` on its first stdout line. GET /test/stats returns the
 * source's counters; GET /test/wallet?address= the wallet's stored decoder version and progress.
 */
import { loadConfig } from '../../src/lib/server/config.js';
import { createServer } from '../../src/lib/server/create-server.js';
import { createScriptedSource } from '../support/scripted-source.js';
import { serveApp } from '../support/app.js';

const source = createScriptedSource({
  transactions: Number(process.env.SCRIPT_TRANSACTIONS ?? 100),
  batchSize: 100,
  decoderVersion: Number(process.env.SCRIPT_VERSION ?? 1),
  redecodeDelayMs: Number(process.env.SCRIPT_REDECODE_DELAY_MS ?? 0),
  ...(process.env.SCRIPT_REDECODE_STALL_AFTER ? { redecodeStallAfter: Number(process.env.SCRIPT_REDECODE_STALL_AFTER) } : {}),
});
const server = await createServer({ config: loadConfig(), log: () => {}, sources: () => source });
const walletRow = async (address: string | null) =>
  Response.json(
    (await server.db.query('SELECT decoder_version, redecode_version, redecode_after, trade_count FROM wallets WHERE address = $1', [address]))[0] ?? null,
  );
const http = await serveApp(server, {
  extra(req) {
    const url = new URL(req.url);
    if (url.pathname === '/test/stats') return Response.json(source.stats);
    if (url.pathname === '/test/wallet') return walletRow(url.searchParams.get('address'));
    return null;
  },
});
console.log(JSON.stringify({ url: http.url }));

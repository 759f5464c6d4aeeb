/**
 * A server process with a scripted source, for tests that kill and restart it.
 * Env: DATA_DIR, SCRIPT_TRANSACTIONS, SCRIPT_BATCH, SCRIPT_DELAY_MS, plus the server's own.
 * Prints `{"url": ...}` on its first stdout line; GET /test/stats returns the source's counters.
 */
import { loadConfig } from '../../src/lib/server/config.js';
import { createServer } from '../../src/lib/server/create-server.js';
import { createScriptedSource } from './scripted-source.js';
import { serveApp } from './app.js';

const source = createScriptedSource({
  transactions: Number(process.env.SCRIPT_TRANSACTIONS ?? 100),
  batchSize: Number(process.env.SCRIPT_BATCH ?? 10),
  delayMs: Number(process.env.SCRIPT_DELAY_MS ?? 0),
});
const starts: (string | undefined)[] = [];
const server = await createServer({
  config: loadConfig(),
  log: () => {},
  sources: () => ({
    chain: 'sol',
    history: (p) => {
      starts.push(p.before);
      return source.history(p);
    },
  }),
});
const http = await serveApp(server, {
  extra: (req) => (new URL(req.url).pathname === '/test/stats' ? Response.json({ ...source.stats, starts }) : null),
});
console.log(JSON.stringify({ url: http.url }));

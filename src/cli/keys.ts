/**
 * API keys from the command line:
 *   npm run keys -- create <account>     prints the new key once
 *   npm run keys -- list                 id, account, prefix, created, revoked
 *   npm run keys -- revoke <id|prefix>
 * Uses the same store as the server (DATABASE_URL or ./data). The embedded database is one
 * process's at a time (store/data-dir-lock.ts): while the server runs on it, this refuses and names
 * the server's process; stop the server first, or use PostgreSQL, where a key works at once.
 */
import { loadConfig } from '../lib/server/config.js';
import { createKey, listKeys, revokeKey } from '../lib/server/store/accounts.js';
import { openDatabase } from '../lib/server/store/database.js';
import { migrate } from '../lib/server/store/migrations.js';

const USAGE = 'usage: keys create <account> | keys list | keys revoke <id|prefix>';

async function main(argv: string[]): Promise<number> {
  const [cmd, arg] = argv;
  if (!cmd || !['create', 'list', 'revoke'].includes(cmd) || (cmd !== 'list' && !arg)) {
    console.error(USAGE);
    return 2;
  }
  if (cmd === 'create' && !/^[A-Za-z0-9_.@-]{1,64}$/.test(arg)) {
    console.error('account names are 1-64 characters of letters, digits and _ . @ -');
    return 2;
  }
  const config = loadConfig();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    if (cmd === 'create') {
      const { key, id } = await createKey(db, arg);
      console.error(`created key ${id} for account "${arg}"; it is shown only this once:`);
      console.log(key);
    } else if (cmd === 'list') {
      const keys = await listKeys(db);
      console.log(['id', 'account', 'prefix', 'created', 'revoked'].join('\t'));
      for (const k of keys) console.log([k.id, k.account, k.prefix, k.createdAt, k.revokedAt ?? '-'].join('\t'));
    } else {
      const n = await revokeKey(db, arg);
      if (n === 0) {
        console.error(`no live key matches "${arg}"`);
        return 1;
      }
      console.error(`revoked ${n} key(s)`);
    }
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);

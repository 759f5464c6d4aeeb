import type { Database } from './database.js';

/**
 * Ordered migrations; each runs once (see `migrate`). Never edit one that shipped:
 * add the next version. `sql` is split at semicolons; a list is run statement by statement as
 * given (for bodies that hold semicolons themselves).
 */
const MIGRATIONS: { version: number; sql: string | string[] }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);
      CREATE TABLE accounts (
        id serial PRIMARY KEY,
        name text NOT NULL UNIQUE,
        usage_trades bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE api_keys (
        id serial PRIMARY KEY,
        account_id int NOT NULL REFERENCES accounts(id),
        key_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      );
      CREATE TABLE wallets (
        id serial PRIMARY KEY,
        chain text NOT NULL,
        address text NOT NULL,
        head_marker text,
        tail_position text,
        complete boolean NOT NULL DEFAULT false,
        trade_count int NOT NULL DEFAULT 0,
        first_trade text,
        head_checked_at timestamptz,
        -- a stream asked for the whole history: loading resumes after a restart
        load_all boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (chain, address)
      );
      -- k: fixed-width order key (position, inverted leg), and descending k is the delivery order.
      -- json: the trade serialised once at write time, served as is.
      CREATE TABLE trades (
        wallet_id int NOT NULL REFERENCES wallets(id),
        k text NOT NULL,
        signature text NOT NULL,
        leg int NOT NULL,
        json text NOT NULL,
        PRIMARY KEY (wallet_id, k),
        UNIQUE (wallet_id, signature, leg)
      );
      -- Closed key intervals [lo, hi] of a wallet's trades already counted for an account.
      CREATE TABLE usage_ranges (
        account_id int NOT NULL REFERENCES accounts(id),
        wallet_id int NOT NULL REFERENCES wallets(id),
        lo text NOT NULL,
        hi text NOT NULL,
        PRIMARY KEY (account_id, wallet_id, lo)
      );
      CREATE TABLE tokens (
        chain text NOT NULL,
        mint text NOT NULL,
        symbol text NOT NULL,
        decimals int NOT NULL,
        PRIMARY KEY (chain, mint)
      );
    `,
  },
  {
    // Order keys compare byte by byte whatever the database's locale: under an ICU or en_US
    // collation '~' (the "newest" sentinel) sorts before digits, and every read came back empty.
    version: 2,
    sql: `
      ALTER TABLE trades ALTER COLUMN k TYPE text COLLATE "C";
      ALTER TABLE usage_ranges ALTER COLUMN lo TYPE text COLLATE "C";
      ALTER TABLE usage_ranges ALTER COLUMN hi TYPE text COLLATE "C"
    `,
  },
  {
    // Metering a delivered run in one call instead of seven statements (BEGIN, lock, ranges,
    // delete, insert, update, COMMIT): each is a round trip, on PGlite 0.4-1 ms of the serving
    // thread and more when it is busy; every stream line pays it before it is written.
    // usage.ts says what it does. The account lock comes first and alone: in READ COMMITTED a
    // VOLATILE function's later statements each see what committed before they started, so a
    // concurrent meter of the same account is seen whole.
    version: 3,
    sql: [
      `CREATE FUNCTION meter_run(p_account int, p_wallet int, p_hi text, p_lo text, p_count int, p_after text) RETURNS int
       LANGUAGE plpgsql VOLATILE AS $$
       DECLARE
         v_already bigint;
         v_lo text COLLATE "C";
         v_hi text COLLATE "C";
         v_los text[];
         v_fresh int;
       BEGIN
         PERFORM 1 FROM accounts WHERE id = p_account FOR UPDATE;
         -- Counted intervals overlapping the run, and the one whose oldest key is the cursor (nothing
         -- can lie between it and the run); the trades they share with the run were counted.
         SELECT coalesce(sum((SELECT count(*) FROM trades t
                              WHERE t.wallet_id = p_wallet AND t.k >= greatest(u.lo, p_lo) AND t.k <= least(u.hi, p_hi))), 0),
                least(p_lo COLLATE "C", min(u.lo)), greatest(p_hi COLLATE "C", max(u.hi)), array_agg(u.lo)
           INTO v_already, v_lo, v_hi, v_los
           FROM usage_ranges u
          WHERE u.account_id = p_account AND u.wallet_id = p_wallet AND ((u.lo <= p_hi AND u.hi >= p_lo) OR u.lo = p_after);
         IF v_los IS NOT NULL THEN
           DELETE FROM usage_ranges WHERE account_id = p_account AND wallet_id = p_wallet AND lo = ANY (v_los);
         END IF;
         INSERT INTO usage_ranges (account_id, wallet_id, lo, hi) VALUES (p_account, p_wallet, v_lo, v_hi);
         v_fresh := p_count - v_already;
         IF v_fresh > 0 THEN
           UPDATE accounts SET usage_trades = usage_trades + v_fresh WHERE id = p_account;
         END IF;
         RETURN v_fresh;
       END
       $$`,
    ],
  },
  {
    // Per-account request counts per minute, shared by every instance on this database
    // (RATE_LIMIT_PER_MINUTE holds across instances); rows older than a minute are dropped.
    version: 4,
    sql: `CREATE TABLE rate_windows (account_id int NOT NULL, minute bigint NOT NULL, count int NOT NULL, PRIMARY KEY (account_id, minute))`,
  },
  {
    // One walk per wallet across every instance on this database: the instance holding a
    // wallet's lease walks it; `generation` grows at every take-over and fences a stale walker's
    // late write (store/leases.ts).
    version: 5,
    sql: `CREATE TABLE wallet_leases (
            wallet_id int PRIMARY KEY REFERENCES wallets (id),
            holder text NOT NULL,
            generation bigint NOT NULL,
            expires_at timestamptz NOT NULL)`,
  },
  {
    // RPC_RPS_<SLUG> shared by every instance: requests started per chain and second (rpc-rate.ts).
    version: 6,
    sql: `CREATE TABLE rpc_rate (chain text NOT NULL, second bigint NOT NULL, count int NOT NULL, PRIMARY KEY (chain, second))`,
  },
  {
    // Demand recorded by API-only instances (ROLE=api) for workers: trades wanted in all (a page's
    // need) and a head refresh asked for. A stream's demand is load_all.
    version: 7,
    sql: `ALTER TABLE wallets ADD COLUMN want_count int NOT NULL DEFAULT 0;
          ALTER TABLE wallets ADD COLUMN refresh_wanted boolean NOT NULL DEFAULT false`,
  },
  {
    // Histories stored by an older decoder are decoded again (store/redecode.ts). decoder_version:
    // the version a wallet's stored trades were decoded with; rows stored before versions were
    // kept get 0, older than any source's. A re-decode under way: the version it decodes with,
    // the key it has replaced up to (oldest first) and the newest key it covers (the newest
    // stored when it began), so a restart resumes it. redecode_wanted: an API-only instance asks
    // the workers for one (demand-worker.ts). Adding a column with a constant default rewrites
    // no rows on PostgreSQL 11+.
    //
    // punch_usage: a re-decode that gives a trade a key no trade had is a trade nobody was
    // delivered; the counted intervals (usage.ts) that span that key are split around it, so it
    // is counted when delivered, while every trade at a key already counted stays counted. The
    // accounts are locked first, in id order, as meter_run locks its one: a meter of the same
    // account waits for the re-decode's transaction instead of merging an interval across it.
    version: 8,
    sql: [
      `ALTER TABLE wallets ADD COLUMN decoder_version int NOT NULL DEFAULT 0`,
      `ALTER TABLE wallets ADD COLUMN redecode_version int`,
      `ALTER TABLE wallets ADD COLUMN redecode_after text COLLATE "C"`,
      `ALTER TABLE wallets ADD COLUMN redecode_end text COLLATE "C"`,
      `ALTER TABLE wallets ADD COLUMN redecode_wanted boolean NOT NULL DEFAULT false`,
      `CREATE FUNCTION punch_usage(p_wallet int, p_keys text[]) RETURNS int
       LANGUAGE plpgsql VOLATILE AS $$
       DECLARE
         v_key text COLLATE "C";
         v_below text COLLATE "C";
         v_above text COLLATE "C";
         u record;
         v_split int := 0;
       BEGIN
         PERFORM 1 FROM accounts WHERE id IN (SELECT account_id FROM usage_ranges WHERE wallet_id = p_wallet) ORDER BY id FOR UPDATE;
         FOREACH v_key IN ARRAY p_keys LOOP
           FOR u IN SELECT account_id, lo, hi FROM usage_ranges WHERE wallet_id = p_wallet AND lo <= v_key AND hi >= v_key LOOP
             -- The nearest trades on either side that were there before (new keys are skipped):
             -- the two pieces end there; the outer bounds stay, so a cursor at one still joins.
             SELECT max(k) INTO v_below FROM trades WHERE wallet_id = p_wallet AND k >= u.lo AND k < v_key AND NOT (k = ANY (p_keys));
             SELECT min(k) INTO v_above FROM trades WHERE wallet_id = p_wallet AND k > v_key AND k <= u.hi AND NOT (k = ANY (p_keys));
             DELETE FROM usage_ranges WHERE account_id = u.account_id AND wallet_id = p_wallet AND lo = u.lo;
             IF v_below IS NOT NULL THEN
               INSERT INTO usage_ranges (account_id, wallet_id, lo, hi) VALUES (u.account_id, p_wallet, u.lo, v_below);
             END IF;
             IF v_above IS NOT NULL THEN
               INSERT INTO usage_ranges (account_id, wallet_id, lo, hi) VALUES (u.account_id, p_wallet, v_above, u.hi);
             END IF;
             v_split := v_split + 1;
           END LOOP;
         END LOOP;
         RETURN v_split;
       END
       $$`,
    ],
  },
  {
    // Unexplained activity (decisions.md, core/activity.ts): a wallet's transactions whose balance
    // changes no trade explains, one row per transaction, keyed by its position (the key its trades
    // would have without the leg), written by the statement that writes the batch's trades, so a
    // resumed walk neither loses nor repeats one. unexplained_count: what the stream's final line says.
    version: 9,
    sql: `CREATE TABLE unexplained (
            wallet_id int NOT NULL REFERENCES wallets(id),
            k text COLLATE "C" NOT NULL,
            signature text NOT NULL,
            json text NOT NULL,
            PRIMARY KEY (wallet_id, k),
            UNIQUE (wallet_id, signature)
          );
          ALTER TABLE wallets ADD COLUMN unexplained_count int NOT NULL DEFAULT 0`,
  },
  {
    // A wallet whose load stopped on an upstream failure is not resumed by the server (at start, by
    // the workers' sweep) before retry_at: failures in a row double the wait (store/wallets.ts).
    // A stored batch clears both. A request for the wallet still tries at once.
    version: 10,
    sql: `ALTER TABLE wallets ADD COLUMN failures int NOT NULL DEFAULT 0;
          ALTER TABLE wallets ADD COLUMN retry_at timestamptz`,
  },
  {
    // Price feed rounds read (issue 22, prices/chainlink-feed.ts), shared by every wallet: a round
    // never changes once published, so it is read from its chain once. feed: '<chain>:<proxy>';
    // round: the proxy's round id in decimal; answer: the raw answer in decimal digits.
    version: 11,
    sql: `CREATE TABLE price_rounds (
            feed text COLLATE "C" NOT NULL,
            round text COLLATE "C" NOT NULL,
            answer text NOT NULL,
            updated_at bigint NOT NULL,
            PRIMARY KEY (feed, round)
          )`,
  },
  {
    // Webhooks (issue 24): a webhook's wallets, and its outbox of deliveries, written by the
    // statement that stores the trades they announce (store/trades.ts), so a crash between storing
    // and sending loses nothing. `next_seq` is taken in that same statement: seq is gapless.
    version: 12,
    sql: `CREATE TABLE webhooks (
            id text COLLATE "C" PRIMARY KEY,
            account_id int NOT NULL REFERENCES accounts(id),
            url text NOT NULL,
            secret_enc text NOT NULL,
            old_secret_enc text,
            old_secret_until timestamptz,
            status text NOT NULL DEFAULT 'active',
            next_seq bigint NOT NULL DEFAULT 1,
            last_error text,
            last_error_at timestamptz,
            created_at timestamptz NOT NULL DEFAULT now()
          );
          CREATE INDEX webhooks_account ON webhooks (account_id);
          CREATE TABLE webhook_wallets (
            webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
            wallet_id int NOT NULL REFERENCES wallets(id),
            -- The wallet's chain and stored address, kept here: a webhook's list never joins the
            -- wallet-scoped wallets table across wallets (docs/scale-out.md).
            chain text NOT NULL,
            address text NOT NULL,
            PRIMARY KEY (webhook_id, wallet_id)
          );
          CREATE INDEX webhook_wallets_wallet ON webhook_wallets (wallet_id);
          CREATE TABLE webhook_deliveries (
            webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
            seq bigint NOT NULL,
            wallet_id int NOT NULL,
            keys text[] NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now(),
            attempts int NOT NULL DEFAULT 0,
            next_attempt_at timestamptz NOT NULL DEFAULT now(),
            claimed_until timestamptz,
            last_error text,
            delivered_at timestamptz,
            PRIMARY KEY (webhook_id, seq)
          );
          CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE delivered_at IS NULL`,
  },
  {
    // One realtime stage per chain across instances (issue 24): each instance says which wallets
    // its followers follow (a row per instance, renewed while it follows, gone when it stops or
    // when its expiry passes), and the instance holding the chain's lease runs the chain's stage
    // for all of them. Keyed by chain, not wallet: the stage's list is one chain's followed wallets.
    version: 13,
    sql: `CREATE TABLE realtime_follows (
            chain text COLLATE "C" NOT NULL,
            address text COLLATE "C" NOT NULL,
            holder text COLLATE "C" NOT NULL,
            expires_at timestamptz NOT NULL,
            PRIMARY KEY (chain, address, holder)
          );
          CREATE INDEX realtime_follows_holder ON realtime_follows (holder);
          CREATE TABLE realtime_leases (
            chain text COLLATE "C" PRIMARY KEY,
            holder text COLLATE "C" NOT NULL,
            generation bigint NOT NULL,
            expires_at timestamptz NOT NULL
          )`,
  },
];

/**
 * Applies what is pending, all of it in one transaction under one lock taken by its first
 * statement. Several servers started at once on a fresh PostgreSQL database then queue on the
 * lock: the first creates everything, the others find it done. (Taking the lock only after
 * `CREATE TABLE IF NOT EXISTS schema_migrations` let two servers race on that statement and one
 * crash with a duplicate pg_type key, about one start in three to eight.)
 */
export async function migrate(db: Database, { upTo = Infinity }: { upTo?: number } = {}): Promise<void> {
  await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7423101)');
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const applied = new Set((await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)));
    for (const m of MIGRATIONS) {
      // upTo: tests build a store as an earlier version of the server left it, then upgrade it.
      if (applied.has(m.version) || m.version > upTo) continue;
      const statements =
        typeof m.sql === 'string'
          ? m.sql
              .split(';')
              .map((s) => s.trim())
              .filter(Boolean)
          : m.sql;
      for (const stmt of statements) await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
    }
  });
  // Fresh planner statistics at start: the embedded database has no autovacuum to gather them
  // (a PostgreSQL server's autovacuum does).
  if (db.kind === 'pglite') await db.exec('ANALYZE trades');
}

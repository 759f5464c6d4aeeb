import type { ChainSource } from '../../core/chain-source.js';
import type { ChainRegistry } from '../../chains/registry.js';
import type { ApiWebhooks } from '../api/create-api.js';
import type { CursorCodec } from '../api/cursor.js';
import type { ServerConfig } from '../config.js';
import type { Database } from '../store/database.js';
import type { LoaderRegistry } from '../sync/loader-registry.js';
import { createRealtime, type Realtime } from '../sync/realtime/create-realtime.js';
import { defaultLookup } from '../webhooks/deliver.js';
import { startWebhookDispatcher, type WebhookDispatcher } from '../webhooks/dispatcher.js';
import { createSecretSealer } from '../webhooks/secrets.js';
import { createWebhookFollows } from '../webhooks/webhook-follows.js';

/**
 * What following wallets needs in a server (issue 24): the realtime stages (where this instance
 * builds sources, each chain's own, one per chain among the instances; ROLE=api runs none and
 * publishes what its followers follow for the instance running the stage), and for webhooks the
 * follows of their wallets and the outbox's sender where this instance walks (the API, wherever it
 * runs, creates and lists them). A walking instance on PostgreSQL learns of webhooks changed through the others every 30 s.
 */
export interface Live {
  realtime: Realtime;
  dispatcher?: WebhookDispatcher;
  /** What the API's webhook operations need. */
  webhooks: ApiWebhooks;
  close(): Promise<void>;
}

export async function startLive(p: {
  config: ServerConfig;
  db: Database;
  chains: ChainRegistry;
  cursors: CursorCodec;
  loaders: LoaderRegistry;
  sourceFor: (chain: string) => ChainSource | Promise<ChainSource>;
  /** This instance's name among those sharing a PostgreSQL database (the wallet leases' holder). */
  holder?: string;
  log: (line: string) => void;
}): Promise<Live> {
  const { config, db, loaders, log } = p;
  const walks = config.role !== 'api';
  // On PostgreSQL one stage per chain among the instances, under a lease as long as a wallet's.
  const shared = p.holder ? { db, holder: p.holder, ttlMs: config.leaseSeconds * 1000 } : undefined;
  const realtime = await createRealtime({ loaders, sourceFor: walks ? p.sourceFor : undefined, shared, log });
  const sealer = config.webhookSecretKey ? createSecretSealer(config.webhookSecretKey) : null;
  const follows = walks ? createWebhookFollows(db, loaders, realtime) : undefined;
  const delivery = { allowHttp: config.webhookAllowHttp, allowPrivate: config.webhookAllowPrivate };
  const dispatcher = walks && sealer ? startWebhookDispatcher({ db, chains: p.chains, cursors: p.cursors, sealer, delivery, log }) : undefined;
  if (follows) await follows.sync();
  // Webhooks created or deleted through another instance (PostgreSQL) are picked up every 30 s.
  const sweep = follows && p.holder ? setInterval(() => void follows.sync().catch(() => {}), 30_000) : undefined;
  sweep?.unref?.();
  return {
    realtime,
    dispatcher,
    webhooks: { sealer, ...delivery, maxPerAccount: config.maxWebhooksPerAccount, lookup: defaultLookup, follows, wakeSender: () => dispatcher?.wake() },
    async close() {
      clearInterval(sweep);
      await dispatcher?.close();
      follows?.close();
      await realtime.close();
    },
  };
}

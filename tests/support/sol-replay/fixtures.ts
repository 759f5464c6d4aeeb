/**
 * Recorded mainnet getTransaction results (tests/fixtures/solana/*.json, MANIFEST.tsv beside
 * them) as the replay server serves them.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const DEFAULT_FIXTURE_DIR = fileURLToPath(new URL('../../fixtures/solana/', import.meta.url));

export interface ManifestRow {
  signature: string;
  venue: string;
  kind: string;
  feePayer: string;
  encoding: string;
}

export interface SolanaFixture {
  signature: string;
  /** The parsed getTransaction result. */
  tx: any;
  /** Compact JSON text of `tx`. */
  text: string;
  manifest?: ManifestRow;
}

/** A transaction as the replay server holds it. */
export interface ReplayTransaction {
  signature: string;
  slot: number;
  blockTime: number | null;
  err: unknown;
  /** Newest-first tie break within a slot: larger = later in the block = returned earlier. */
  indexInSlot: number;
  /** Addresses whose getSignaturesForAddress lists this transaction. */
  accounts: readonly string[];
  /** getTransaction result text; null means the node does not have it (answers null). */
  text: string | null;
  /** Transaction version: 0 needs maxSupportedTransactionVersion in the request, as on a real node. */
  version?: 0 | 'legacy';
}

export function readManifest(dir = DEFAULT_FIXTURE_DIR): Map<string, ManifestRow> {
  const file = path.join(dir, 'MANIFEST.tsv');
  const out = new Map<string, ManifestRow>();
  if (!existsSync(file)) return out;
  const [header, ...lines] = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const cols = header.split('\t');
  const at = (name: string) => cols.indexOf(name);
  for (const line of lines) {
    const f = line.split('\t');
    out.set(f[at('signature')], {
      signature: f[at('signature')],
      venue: f[at('venue')],
      kind: f[at('kind')],
      feePayer: f[at('fee_payer')],
      encoding: f[at('encoding')],
    });
  }
  return out;
}

/** One recorded getTransaction result by signature (the top folder, else partial/), its `result` when saved whole. */
export function loadFixtureTx(signature: string, dir = DEFAULT_FIXTURE_DIR): any {
  const top = path.join(dir, `${signature}.json`);
  const raw = JSON.parse(readFileSync(existsSync(top) ? top : path.join(dir, 'partial', `${signature}.json`), 'utf8'));
  return raw.result ?? raw;
}

/**
 * A json-encoded transaction rebuilt in the jsonParsed shape: accounts named by pubkey with signer
 * flags, lookup-table addresses inline in accountKeys (the lamport lists keep that order),
 * unknown programs' data left in base58; the pre-parsed system and token instructions a real
 * jsonParsed answer has are not made (the real fixtures cover them).
 */
export function asJsonParsedShape(tx: any): any {
  const m = tx.transaction.message;
  const loaded = tx.meta.loadedAddresses ?? { writable: [], readonly: [] };
  const keys: string[] = [...m.accountKeys, ...loaded.writable, ...loaded.readonly];
  const ix = (i: any) => ({
    programId: keys[i.programIdIndex],
    accounts: i.accounts.map((a: number) => keys[a]),
    data: i.data,
    stackHeight: i.stackHeight ?? null,
  });
  return {
    ...tx,
    meta: {
      ...tx.meta,
      loadedAddresses: undefined,
      innerInstructions: (tx.meta.innerInstructions ?? []).map((g: any) => ({ index: g.index, instructions: g.instructions.map(ix) })),
    },
    transaction: {
      signatures: tx.transaction.signatures,
      message: {
        accountKeys: keys.map((pubkey, i) => ({
          pubkey,
          signer: i < m.header.numRequiredSignatures,
          writable: true,
          source: i < m.accountKeys.length ? 'transaction' : 'lookupTable',
        })),
        instructions: m.instructions.map(ix),
        recentBlockhash: m.recentBlockhash,
      },
    },
  };
}

export function loadSolanaFixtures(dir = DEFAULT_FIXTURE_DIR): SolanaFixture[] {
  if (!existsSync(dir)) throw new Error(`no Solana fixtures at ${dir}`);
  const manifest = readManifest(dir);
  return (
    readdirSync(dir)
      // Transactions are named <signature>.json; other files (golden expectations) sit beside them.
      .filter((f) => /^[1-9A-HJ-NP-Za-km-z]{64,90}\.json$/.test(f))
      .sort()
      .map((f) => {
        const tx = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
        const signature = tx.transaction.signatures[0] as string;
        return { signature, tx, text: JSON.stringify(tx), manifest: manifest.get(signature) };
      })
  );
}

/** Every address a transaction names: static keys (json or jsonParsed) and loaded ones. */
export function accountsOf(tx: any): string[] {
  const keys: string[] = [];
  for (const k of tx.transaction?.message?.accountKeys ?? []) keys.push(typeof k === 'string' ? k : k.pubkey);
  const loaded = tx.meta?.loadedAddresses;
  if (loaded) keys.push(...(loaded.writable ?? []), ...(loaded.readonly ?? []));
  return [...new Set(keys)];
}

/** Signer addresses of a transaction, fee payer first. */
export function signersOf(tx: any): string[] {
  const keys = tx.transaction?.message?.accountKeys ?? [];
  if (keys.length > 0 && typeof keys[0] !== 'string') return keys.filter((k: any) => k.signer).map((k: any) => k.pubkey);
  const n = tx.transaction?.message?.header?.numRequiredSignatures ?? tx.transaction?.signatures?.length ?? 1;
  return keys.slice(0, n);
}

export interface MintFacts {
  mint: string;
  decimals: number;
  programId: string;
}

/** Mints in a transaction's token balances, with their decimals and token program. */
export function mintsOf(tx: any): MintFacts[] {
  const out = new Map<string, MintFacts>();
  for (const list of [tx.meta?.preTokenBalances, tx.meta?.postTokenBalances]) {
    for (const b of list ?? []) {
      if (!out.has(b.mint)) {
        out.set(b.mint, {
          mint: b.mint,
          decimals: b.uiTokenAmount?.decimals ?? 0,
          programId: b.programId ?? 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        });
      }
    }
  }
  return [...out.values()];
}

export function replayTransactionFromFixture(f: SolanaFixture, indexInSlot = 0): ReplayTransaction {
  return {
    signature: f.signature,
    slot: f.tx.slot,
    blockTime: f.tx.blockTime ?? null,
    err: f.tx.meta?.err ?? null,
    indexInSlot,
    accounts: accountsOf(f.tx),
    text: f.text,
    version: f.tx.version === 0 ? 0 : 'legacy',
  };
}

/**
 * A large wallet built from real transactions: each recorded swap is re-assigned to one wallet
 * by replacing its trading signer's pubkey everywhere in the text (account keys, token balance
 * owners, parsed instruction fields, logs), giving every signature a fresh 64-byte value, and
 * placing it at increasing slots and block times. Shapes stay real; only identities change.
 */
import { base58Decode, base58Encode } from '../../../src/lib/chains/sol/address.js';
import { mintsOf, signersOf, type MintFacts, type ReplayTransaction, type SolanaFixture } from './fixtures.js';

/** mulberry32: small, fast, seeded; good enough for fault injection and synthetic data. */
export function createPrng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomBytes(rng: () => number, n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rng() * 256);
  return b;
}

/** A fresh transaction signature: base58 of 64 bytes (first byte non-zero: 86-88 chars as on chain). */
export function randomSignature(rng: () => number): string {
  const b = randomBytes(rng, 64);
  b[0] = 1 + (b[0] % 255);
  return base58Encode(b);
}

export function randomAddress(rng: () => number): string {
  const b = randomBytes(rng, 32);
  b[0] = 1 + (b[0] % 255);
  return base58Encode(b);
}

type Decoder = (tx: unknown, wallet: string) => readonly unknown[];

/** A fixture prepared for re-assignment: its text split around the holes to fill. */
interface Template {
  signature: string;
  parts: string[];
  /** Hole names between parts: 'W' wallet, 'S0'.. signatures, 'SLOT', 'TIME'. */
  holes: string[];
  trades: number;
  /** Other addresses the transaction names (for the signature index). */
  accounts: string[];
  mints: MintFacts[];
  failed: boolean;
  sigCount: number;
  version: 0 | 'legacy';
}

const HOLE = /@@([A-Z0-9]+)@@/g;

function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** `bytes` with every occurrence of `from` replaced by `to` (same length), or null when none. */
function replaceBytes(bytes: Uint8Array, from: Uint8Array, to: Uint8Array): Uint8Array | null {
  let i = indexOfBytes(bytes, from);
  if (i < 0) return null;
  const out = bytes.slice();
  while (i >= 0) {
    out.set(to, i);
    i = indexOfBytes(out, from, i + from.length);
  }
  return out;
}

/**
 * Programs also carry the trader inside binary payloads: instruction data (base58) and emitted
 * events ("Program data: " base64 log lines, e.g. Pump.fun's TradeEvent has the user's key).
 * Those are decoded, the 32 key bytes swapped, and encoded again.
 */
function reassignBinary(tx: any, trader: string, wallet: string): void {
  const from = base58Decode(trader)!;
  const to = base58Decode(wallet)!;
  const fixIx = (ix: any) => {
    if (typeof ix?.data !== 'string') return;
    const b = base58Decode(ix.data);
    const r = b && replaceBytes(b, from, to);
    if (r) ix.data = base58Encode(r);
  };
  for (const ix of tx.transaction?.message?.instructions ?? []) fixIx(ix);
  for (const inner of tx.meta?.innerInstructions ?? []) for (const ix of inner.instructions ?? []) fixIx(ix);
  const logs: string[] | undefined = tx.meta?.logMessages;
  if (Array.isArray(logs)) {
    tx.meta.logMessages = logs.map((line) => {
      const m = /^Program data: (.*)$/.exec(line);
      if (!m) return line;
      const parts = m[1].split(' ').map((p) => {
        const r = replaceBytes(new Uint8Array(Buffer.from(p, 'base64')), from, to);
        return r ? Buffer.from(r).toString('base64') : p;
      });
      return `Program data: ${parts.join(' ')}`;
    });
  }
}

function makeTemplate(f: SolanaFixture, trader: string, wallet: string, trades: number, failed: boolean): Template {
  const tx = structuredClone(f.tx);
  reassignBinary(tx, trader, wallet);
  tx.slot = '@@SLOT@@';
  tx.blockTime = '@@TIME@@';
  if (failed) {
    // As a failed swap looks on chain: an instruction error, status Err (balances are left as the
    // template's: what a failed transaction must give is nothing, whatever they say).
    tx.meta.err = { InstructionError: [2, { Custom: 6001 }] };
    tx.meta.status = { Err: tx.meta.err };
  }
  let text = JSON.stringify(tx).replace(/"@@(SLOT|TIME)@@"/g, '@@$1@@');
  text = text.split(trader).join('@@W@@');
  (f.tx.transaction.signatures as string[]).forEach((s, i) => {
    text = text.split(s).join(`@@S${i}@@`);
  });
  const parts: string[] = [];
  const holes: string[] = [];
  let last = 0;
  for (const m of text.matchAll(HOLE)) {
    parts.push(text.slice(last, m.index));
    holes.push(m[1]);
    last = m.index! + m[0].length;
  }
  parts.push(text.slice(last));
  const accounts = new Set<string>();
  for (const k of f.tx.transaction.message.accountKeys) accounts.add(typeof k === 'string' ? k : k.pubkey);
  accounts.delete(trader);
  return {
    signature: f.signature,
    parts,
    holes,
    trades,
    accounts: [...accounts],
    mints: mintsOf(f.tx),
    failed,
    sigCount: f.tx.transaction.signatures.length,
    version: f.tx.version === 0 ? 0 : 'legacy',
  };
}

/**
 * Joined, not concatenated: `+=` makes a rope of every piece, and the replay server walked each
 * transaction's rope again for every answer that copied it (2.6-3.2 s of its CPU per 10,000-trade
 * walk, beside the walk a benchmark measures); join gives one flat string.
 */
function fill(t: Template, values: Record<string, string>): string {
  const out: string[] = [t.parts[0]];
  for (let i = 0; i < t.holes.length; i++) out.push(values[t.holes[i]], t.parts[i + 1]);
  return out.join('');
}

export interface SynthOptions {
  fixtures: SolanaFixture[];
  /** Trades the wallet should have in total (exactly, when single-trade swaps exist). */
  trades: number;
  /** The decoder, to find which signer trades in each swap and how many trades it makes. */
  decode: Decoder;
  seed?: number;
  wallet?: string;
  startSlot?: number;
  startTime?: number;
  /** Share of listed transactions that failed (err set). Default 0.02. */
  failedShare?: number;
  /** Share of listed transactions that are not trades (transfers and the like). Default 0.05. */
  nonTradeShare?: number;
  /** Chance that a transaction shares the previous one's slot. Default 0.3. */
  sameSlotShare?: number;
}

export interface SynthWallet {
  wallet: string;
  /** Oldest first. */
  transactions: ReplayTransaction[];
  tradeCount: number;
  /** Mints the wallet's transactions touch (for test metadata accounts). */
  mints: MintFacts[];
  /** Fixture each synthesised signature came from. */
  sourceOf: Map<string, string>;
}

/** Builds a wallet whose history is `trades` trades on real transaction shapes. */
export function synthesizeWallet(o: SynthOptions): SynthWallet {
  const rng = createPrng(o.seed ?? 1);
  const wallet = o.wallet ?? randomAddress(rng);
  const swaps: Template[] = [];
  // The same swaps as failed on chain: the transaction served carries its error too (a walk never
  // fetches them, a re-decode of named transactions may).
  const failedTemplates: Template[] = [];
  const others: Template[] = [];
  for (const f of o.fixtures) {
    let picked: { signer: string; n: number } | null = null;
    for (const s of signersOf(f.tx)) {
      let n: number;
      try {
        n = o.decode(f.tx, s).length;
      } catch {
        n = 0; // a transaction the decoder cannot read is not used as a swap template
      }
      if (n > 0) {
        picked = { signer: s, n };
        break;
      }
    }
    if (picked) {
      swaps.push(makeTemplate(f, picked.signer, wallet, picked.n, false));
      failedTemplates.push(makeTemplate(f, picked.signer, wallet, picked.n, true));
    } else others.push(makeTemplate(f, signersOf(f.tx)[0], wallet, 0, false));
  }
  const singles = swaps.filter((t) => t.trades === 1);
  if (swaps.length === 0) throw new Error('no fixture decodes to a trade');
  const failedShare = o.failedShare ?? 0.02;
  const nonTradeShare = others.length > 0 ? (o.nonTradeShare ?? 0.05) : 0;
  const sameSlot = o.sameSlotShare ?? 0.3;

  let slot = o.startSlot ?? 300_000_000;
  const startTime = o.startTime ?? 1_730_000_000;
  let indexInSlot = 0;
  let tradeCount = 0;
  const transactions: ReplayTransaction[] = [];
  const mints = new Map<string, MintFacts>();
  const sourceOf = new Map<string, string>();
  const pick = <T>(a: T[]) => a[Math.floor(rng() * a.length)];

  while (tradeCount < o.trades) {
    const r = rng();
    let t: Template;
    if (r < failedShare) t = pick(failedTemplates);
    else if (r < failedShare + nonTradeShare) t = pick(others);
    else {
      t = pick(swaps);
      if (tradeCount + t.trades > o.trades) {
        if (singles.length === 0) break;
        t = pick(singles);
      }
    }
    if (transactions.length > 0 && rng() < sameSlot) indexInSlot++;
    else {
      slot += 1 + Math.floor(rng() * 3);
      indexInSlot = 0;
    }
    // ~400 ms per slot, as on mainnet.
    const blockTime = startTime + Math.floor((slot - (o.startSlot ?? 300_000_000)) * 0.4);
    const values: Record<string, string> = { W: wallet, SLOT: String(slot), TIME: String(blockTime) };
    for (let i = 0; i < t.sigCount; i++) values[`S${i}`] = randomSignature(rng);
    const signature = values.S0;
    const text = fill(t, values);
    sourceOf.set(signature, t.signature);
    if (!t.failed) tradeCount += t.trades;
    for (const m of t.mints) mints.set(m.mint, m);
    transactions.push({
      signature,
      slot,
      blockTime,
      err: t.failed ? { InstructionError: [2, { Custom: 6001 }] } : null,
      indexInSlot,
      accounts: [wallet, ...t.accounts],
      text,
      version: t.version,
    });
  }
  return { wallet, transactions, tradeCount, mints: [...mints.values()], sourceOf };
}

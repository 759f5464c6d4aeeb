/**
 * A synthesised wallet too large to hold as text: 1,000,000 trades are about 940,000
 * transactions, about 13 GB of getTransaction JSON (14 KB each). One period, a wallet from
 * `synthesizeWallet` (real shapes), is repeated `copies` times at later slots, each copy's
 * signatures made unique by their last five base58 digits (the copy's number); a transaction's
 * text is filled in when the replay server asks for it, from the period's text cut at its
 * signatures, slot and block time. What the replay server holds per transaction is then the
 * signature and a few numbers (about 200 bytes).
 *
 * Only the wallet itself lists these transactions (getSignaturesForAddress of another account
 * named in them finds none): the 19 other addresses of each would add ~19 index entries apiece,
 * and a client walking the wallet never asks for them.
 */
import { base58Decode } from '../../../src/lib/chains/sol/address.js';
import type { MintFacts, ReplayTransaction } from './fixtures.js';
import type { ReplayServer } from './server.js';
import type { SynthWallet } from './synth.js';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Base58 digits a copy's number takes at the end of each signature: 58^5, 656 million copies. */
const SUFFIX = 5;

function suffix(copy: number): string {
  let s = '';
  for (let i = 0, n = copy; i < SUFFIX; i++, n = Math.floor(n / 58)) s = BASE58[n % 58] + s;
  return s;
}

type Hole = { signature: number } | 'slot' | 'time';

/** One period transaction, its text cut around what changes from copy to copy. */
interface PeriodEntry {
  tx: ReplayTransaction;
  /** Its signatures without their last SUFFIX digits. */
  stems: string[];
  parts: string[];
  holes: Hole[];
}

/** `text` cut at every occurrence of each needle; throws when a needle is missing. */
function cut(text: string, needles: [string, Hole][]): { parts: string[]; holes: Hole[] } {
  const at: { index: number; length: number; hole: Hole }[] = [];
  for (const [needle, hole] of needles) {
    let found = false;
    for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) {
      // "slot":12 is not "slot":123.
      if (typeof hole === 'string' && /\d/.test(text[i + needle.length] ?? '')) continue;
      at.push({ index: i, length: needle.length, hole });
      found = true;
    }
    if (!found) throw new Error(`repeated wallet: ${needle} not in the transaction text`);
  }
  at.sort((a, b) => a.index - b.index);
  const parts: string[] = [];
  let last = 0;
  for (const a of at) {
    parts.push(text.slice(last, a.index));
    last = a.index + a.length;
  }
  parts.push(text.slice(last));
  return { parts, holes: at.map((a) => a.hole) };
}

function periodEntry(tx: ReplayTransaction): PeriodEntry {
  if (tx.text === null) throw new Error('repeated wallet: a period transaction has no text');
  const signatures: string[] = JSON.parse(tx.text).transaction.signatures;
  // The largest suffix must still decode to 64 bytes, so every copy's signature does.
  for (const s of signatures) {
    if (base58Decode(s.slice(0, -SUFFIX) + 'zzzzz')?.length !== 64) throw new Error(`repeated wallet: ${s} cannot take a copy number`);
  }
  const needles: [string, Hole][] = signatures.map((s, i) => [s, { signature: i }]);
  needles.push([`"slot":${tx.slot}`, 'slot']);
  if (tx.blockTime !== null) needles.push([`"blockTime":${tx.blockTime}`, 'time']);
  return { tx, stems: signatures.map((s) => s.slice(0, -SUFFIX)), ...cut(tx.text, needles) };
}

interface Reading {
  /** While set, the other copies' texts answer null (listTokenAccounts). */
  onlyCopy: number | null;
  /** The text filled last: the replay server reads a transaction's text twice in a row. */
  last: { tx: RepeatedTransaction; text: string } | null;
}

class RepeatedTransaction implements ReplayTransaction {
  readonly signature: string;
  readonly slot: number;
  readonly blockTime: number | null;
  constructor(
    private readonly of: PeriodEntry,
    private readonly copy: number,
    slotShift: number,
    readonly accounts: readonly string[],
    private readonly reading: Reading,
  ) {
    this.signature = of.stems[0] + suffix(copy);
    this.slot = of.tx.slot + slotShift;
    // ~400 ms per slot, as the period's own times.
    this.blockTime = of.tx.blockTime === null ? null : of.tx.blockTime + Math.floor(slotShift * 0.4);
  }
  get err(): unknown {
    return this.of.tx.err;
  }
  get indexInSlot(): number {
    return this.of.tx.indexInSlot;
  }
  get version(): 0 | 'legacy' | undefined {
    return this.of.tx.version;
  }
  get text(): string | null {
    if (this.reading.onlyCopy !== null && this.copy !== this.reading.onlyCopy) return null;
    if (this.reading.last?.tx === this) return this.reading.last.text;
    const { parts, holes, stems } = this.of;
    const end = suffix(this.copy);
    let out = parts[0];
    for (let i = 0; i < holes.length; i++) {
      const h = holes[i];
      out += (h === 'slot' ? `"slot":${this.slot}` : h === 'time' ? `"blockTime":${this.blockTime}` : stems[h.signature] + end) + parts[i + 1];
    }
    this.reading.last = { tx: this, text: out };
    return out;
  }
}

export interface RepeatedWallet {
  wallet: string;
  tradeCount: number;
  /** Oldest first. */
  transactions: ReplayTransaction[];
  mints: MintFacts[];
  /**
   * Has `server` work out the wallet's token accounts now (it keeps the answer), from the newest
   * copy alone: every copy opens and closes the same accounts, so the state after the newest is
   * the state after all of them; read whole, the ~13 GB of text would take minutes to parse.
   */
  listTokenAccounts(server: Pick<ReplayServer, 'tokenAccountsOf'>): void;
}

/** `period` (oldest first) repeated `copies` times, the newest copy last; its trades `copies` times the period's. */
export function repeatWallet(period: SynthWallet, copies: number): RepeatedWallet {
  if (copies < 1 || copies > 58 ** SUFFIX) throw new Error(`repeated wallet: ${copies} copies`);
  const entries = period.transactions.map(periodEntry);
  const span = period.transactions.at(-1)!.slot - period.transactions[0].slot + 1;
  const accounts = [period.wallet];
  const reading: Reading = { onlyCopy: null, last: null };
  const transactions: ReplayTransaction[] = [];
  for (let c = 0; c < copies; c++) for (const e of entries) transactions.push(new RepeatedTransaction(e, c, c * span, accounts, reading));
  return {
    wallet: period.wallet,
    tradeCount: period.tradeCount * copies,
    transactions,
    mints: period.mints,
    listTokenAccounts(server) {
      reading.onlyCopy = copies - 1;
      try {
        server.tokenAccountsOf(period.wallet);
      } finally {
        reading.onlyCopy = null;
      }
    },
  };
}

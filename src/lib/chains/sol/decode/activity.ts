/**
 * Solana transaction -> the wallet's balance changes beside its trades (core/activity.ts,
 * decisions.md "Unexplained activity"). Pure: no I/O, from the transaction's own pre/post balances.
 *
 * - changes: per mint, the sum over the wallet's own token accounts (token balances whose owner is
 *   the wallet) of post - pre. SOL is the lamport change of the wallet's account plus its own token
 *   accounts, the fee added back when the wallet paid it: wrapping and unwrapping SOL, and rent
 *   moved between the wallet and its own token accounts, cancel out, so WSOL is SOL and is never
 *   listed as a mint of its own.
 * - incidentalNative: rent the wallet paid for accounts created here that are not its own, and
 *   tips it paid to Jito's tip accounts. Rent is read from the System program's own two ways of
 *   creating an account (CreateAccount, or Transfer + Allocate), which every program that opens
 *   an account goes through, rather than from a list of venues; it is what the wallet funded, no
 *   more than the new account's rent-exempt minimum: a conservative allowance, in which lamports
 *   beyond rent, or sent to a fresh address by a Transfer alone, stay a payment.
 * - programs: every program invoked, top level and inner, once each, ComputeBudget left out (it
 *   is in nearly every transaction and says nothing about what it did).
 * - knownNonTrade: tokens minted to the wallet while it gives others (a liquidity or receipt-token
 *   deposit), or its tokens burnt while it receives others (a withdrawal, a 1:1 migration).
 */
import { isUnexplained, type BalanceDelta, type TransactionActivity } from '../../../core/activity.js';
import { normalizeTransaction, systemCreateOf, type SolTransaction } from './normalize.js';
import { SYSTEM_PROGRAM, WSOL_MINT } from '../programs.js';

const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const SOL_DECIMALS = 9;

/**
 * Jito's eight mainnet tip accounts, as the block engine's `getTipAccounts` method returns them
 * (Jito low-latency transaction send docs; QuickNode's getTipAccounts page shows the same eight).
 * A System transfer to one of them is a priority tip, never a side of an exchange.
 */
const JITO_TIP_ACCOUNTS: ReadonlySet<string> = new Set([
  '96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5',
  'HFqU5x63VTqvQss8hp11i4wVV8bD44PvwucfZ2bU7gRe',
  'Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY',
  'ADaUMid9yfUytqMBgopwjb2DTLSokTSzL1zt6iGPaS49',
  'DfXygSm4jCyNCybVYYK6DwvWqjKee8pbDmJGcLWNDXjh',
  'ADuUkR4vqLUMWXxW9gh6D6L8pMSawimctcNZ5pGwDcEt',
  'DttWaMuVvTiduZRnguLF7jNxTgiMBZ1hyAumKUiL2KRL',
  '3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT',
]);

/**
 * Rent-exempt minimum of an account of `space` bytes: (128 bytes of account overhead + space) x
 * 3,480 lamports per byte-year x 2 years (the mainnet rent parameters since genesis). A 165-byte
 * token account: 293 x 6,960 = 2,039,280 lamports; an empty one 890,880.
 */
function rentExempt(space: bigint): bigint {
  return (128n + space) * 6960n;
}

/**
 * The wallet's activity in one `getTransaction` result (json or jsonParsed, as
 * `decodeSolanaTransaction` takes it); null when the transaction failed or the wallet did not sign
 * it. Throws HistoryError `rpc_malformed_response` for something that is not a transaction.
 */
export function solanaActivity(raw: unknown, wallet: string): TransactionActivity | null {
  return solanaActivityOf(normalizeTransaction(raw), wallet);
}

/** The wallet's place and own accounts in a transaction, and its balance changes (fee excluded). */
interface Balances {
  w: number;
  own: Uint8Array;
  changes: BalanceDelta[];
}

function balancesOf(tx: SolTransaction, wallet: string): Balances | null {
  if (tx.failed) return null;
  const { keys, preLamports: pre, postLamports: post } = tx;
  let w = -1;
  for (let i = 0; i < tx.signerCount && i < keys.length; i++) {
    if (keys[i] === wallet) {
      w = i;
      break;
    }
  }
  if (w < 0) return null;

  // The wallet's own accounts: its system account and every token account it owns in either
  // balance list. Their lamports are the wallet's SOL (a WSOL account's lamports are its rent
  // plus the wrapped amount), so WSOL token amounts are not counted a second time.
  const own = new Uint8Array(keys.length);
  const ownList: number[] = [w];
  own[w] = 1;
  // Per token account: its amount before and after, as the node wrote them. Most accounts of a
  // transaction do not change, and comparing the two strings spares converting them (the BigInt
  // of two amount strings per account was most of this function's time).
  const before: string[] = [];
  const after: string[] = [];
  const mintAt: string[] = [];
  const decimalsAt: number[] = [];
  const note = (list: SolTransaction['preTokenBalances'], into: string[]) => {
    for (const b of list) {
      if (b.owner !== wallet || b.index < 0 || b.index >= own.length) continue;
      if (own[b.index] === 0) {
        own[b.index] = 1;
        ownList.push(b.index);
      }
      if (b.mint === WSOL_MINT) continue;
      into[b.index] = b.amount;
      mintAt[b.index] = b.mint;
      decimalsAt[b.index] = b.decimals;
    }
  };
  note(tx.preTokenBalances, before);
  note(tx.postTokenBalances, after);
  const tokens: BalanceDelta[] = [];
  // In the order the balance lists name them (pre, then post), as the API lists changes.
  for (const i of ownList) {
    const mint = mintAt[i];
    if (mint === undefined) continue;
    const pre = before[i] ?? '0';
    const postAmount = after[i] ?? '0';
    if (pre === postAmount) continue;
    const delta = BigInt(postAmount) - BigInt(pre);
    let d: BalanceDelta | undefined;
    for (const t of tokens) {
      if (t.tokenMint === mint) {
        d = t;
        break;
      }
    }
    if (d) d.raw += delta;
    else tokens.push({ tokenMint: mint, raw: delta, decimals: decimalsAt[i] });
  }

  // Lamports arrive as JSON numbers: exact below 2^53 (9,007,199 SOL), beyond any wallet's change.
  let lamports = w === 0 ? tx.fee : 0;
  for (const i of ownList) lamports += (post[i] ?? 0) - (pre[i] ?? 0);
  const changes: BalanceDelta[] = [];
  if (lamports !== 0) changes.push({ tokenMint: null, raw: BigInt(lamports), decimals: SOL_DECIMALS });
  for (const t of tokens) if (t.raw !== 0n) changes.push(t);
  return { w, own, changes };
}

/**
 * The transaction's activity when it is unexplained given its trades' mints (core/activity.ts),
 * else null. A transaction can only be listed when a token account of the wallet changed in a mint
 * no trade names, so that is looked for first, without allocating; then the balance changes alone
 * decide, with no rent or tip set apart and no non-trade known (both only take a transaction off
 * the list); only then are the instructions read. Most transactions of a walk stop at the first
 * look: the whole activity costs about a fifth of a decode (26,100 vs 21,600 tx/s on the fixtures).
 */
export function unexplainedActivity(tx: SolTransaction, wallet: string, tradeMints: readonly string[]): TransactionActivity | null {
  if (tx.failed || !unnamedTokenChanged(tx, wallet, tradeMints)) return null;
  const b = balancesOf(tx, wallet);
  if (b === null || !isUnexplained({ changes: b.changes, incidentalNative: 0n, programs: [], knownNonTrade: false }, tradeMints)) return null;
  const activity = activityOf(tx, b);
  return isUnexplained(activity, tradeMints) ? activity : null;
}

/** A token account of the wallet whose amount changed, in a mint (not WSOL) no trade names. */
function unnamedTokenChanged(tx: SolTransaction, wallet: string, named: readonly string[]): boolean {
  const pre = tx.preTokenBalances;
  const post = tx.postTokenBalances;
  const amountAt = (list: SolTransaction['preTokenBalances'], index: number) => {
    for (const b of list) if (b.index === index) return b.amount;
    return '0';
  };
  for (const b of post) {
    if (b.owner !== wallet || b.mint === WSOL_MINT || named.includes(b.mint)) continue;
    if (amountAt(pre, b.index) !== b.amount) return true;
  }
  for (const b of pre) {
    if (b.owner !== wallet || b.mint === WSOL_MINT || named.includes(b.mint)) continue;
    if (amountAt(post, b.index) !== b.amount) return true;
  }
  return false;
}

/** `solanaActivity` of an already normalized transaction (for a caller that normalized it once for both). */
function solanaActivityOf(tx: SolTransaction, wallet: string): TransactionActivity | null {
  const b = balancesOf(tx, wallet);
  return b === null ? null : activityOf(tx, b);
}

/** The activity from the wallet's balance changes and one pass over the instructions. */
function activityOf(tx: SolTransaction, { w, own, changes }: Balances): TransactionActivity {
  const { keys, preLamports: pre, postLamports: post, instructions } = tx;

  // One pass over the instructions: programs, tips, rent paid for others' accounts, supply changes.
  const programs: string[] = [];
  const seenProgram = new Uint8Array(keys.length);
  let tips = 0n;
  let rent = 0n;
  let rentCounted: Uint8Array | null = null;
  let allocated: { account: number; space: bigint }[] | null = null;
  let minted: string[] | null = null;
  let burnt: string[] | null = null;
  // An account that did not exist before (0 lamports), still exists after (a temporary account
  // closed again returned its rent) and is not the wallet's own (rent moved into the wallet's own
  // token accounts already cancels in `lamports`).
  const createdForOthers = (a: number | undefined): a is number =>
    a !== undefined && a >= 0 && a < own.length && own[a] === 0 && pre[a] === 0 && post[a] > 0 && rentCounted?.[a] !== 1;
  // What the wallet paid into such an account counts as rent up to the rent-exempt minimum of its
  // size and no more than the account holds, so lamports passed beyond rent stay a payment (an
  // escrow funded through createAccount; Metaplex's 0.01 SOL fee paid into a new metadata account
  // beside its 5,616,720 lamports of rent, 2s393PSY…).
  const countRent = (a: number, paid: bigint, space: bigint) => {
    const held = BigInt(post[a]);
    if (held < paid) paid = held;
    const cap = rentExempt(space);
    if (cap < paid) paid = cap;
    rent += paid;
    (rentCounted ??= new Uint8Array(keys.length))[a] = 1;
  };
  for (const ix of instructions) {
    const p = ix.program;
    const programKey = keys[p];
    if (programKey === undefined) continue;
    if (seenProgram[p] === 0) {
      seenProgram[p] = 1;
      if (programKey !== COMPUTE_BUDGET_PROGRAM) programs.push(programKey);
    }
    const op = ix.op;
    if (op !== null) {
      // A tip is a System transfer from the wallet to a Jito tip account, at any depth (bots tip
      // from inside their own program with the wallet as the signer).
      if (op.kind === 'sol' && op.src === w && op.dst >= 0 && JITO_TIP_ACCOUNTS.has(keys[op.dst])) tips += op.amount;
      continue;
    }
    const acct = ix.accountOp;
    if (acct !== null && acct.kind !== 'create') {
      if (acct.kind === 'allocate') {
        if (createdForOthers(acct.account)) (allocated ??= []).push(acct);
      } else if (acct.account >= 0 && own[acct.account] === 1 && acct.account !== w) {
        // Supply changes of the wallet's own token accounts only.
        if (acct.kind === 'mint') (minted ??= []).push(acct.mint);
        else (burnt ??= []).push(acct.mint);
      }
      continue;
    }
    if (programKey !== SYSTEM_PROGRAM) continue;
    // Rent of an account the wallet created by CreateAccount(WithSeed). Cheap checks first: a
    // json instruction's data is decoded (about 2.3 µs) only when its funder is the wallet and
    // its new account one created for others.
    const a = acct === null ? ix.accounts[1] : acct.account;
    if (!createdForOthers(a) || (acct === null && ix.accounts[0] !== w)) continue;
    const c = systemCreateOf(ix);
    if (c !== null && c.funder === w && c.account === a) countRent(a, c.lamports, c.space);
  }
  // The other way the System program creates an account (Metaplex's metadata, Anchor's `init` of
  // an account that already holds lamports): Transfer the rent in, then Allocate and Assign. The
  // wallet's transfers into an account allocated here count as rent, capped as above.
  if (allocated !== null) {
    for (const { account, space } of allocated) {
      if (rentCounted?.[account] === 1) continue;
      let paid = 0n;
      for (const ix of instructions) if (ix.op?.kind === 'sol' && ix.op.src === w && ix.op.dst === account) paid += ix.op.amount;
      if (paid > 0n) countRent(account, paid, space);
    }
  }

  const incidentalNative = rent + tips;
  return {
    changes,
    incidentalNative,
    programs,
    knownNonTrade: (minted !== null || burnt !== null) && knownNonTrade(changes, incidentalNative, minted, burnt),
  };
}

/**
 * decisions.md's non-trades the transaction itself shows: tokens minted to the wallet while it
 * gives other assets (liquidity added for LP tokens, a deposit for a receipt token), or the
 * wallet's tokens burnt while it receives others (liquidity removed, a withdrawal, a 1:1
 * migration). Conservative, so that no payment for a token is hidden: with a mint, everything the
 * wallet received must be a token minted to it here (a swap beside a deposit, or SOL received,
 * keeps the transaction judged); with a burn, everything it gave beyond fees, tips and rent must
 * be a token burnt from it here.
 */
function knownNonTrade(changes: BalanceDelta[], incidental: bigint, minted: string[] | null, burnt: string[] | null): boolean {
  const received = (c: BalanceDelta) => c.raw > 0n;
  const given = (c: BalanceDelta) => c.raw < 0n && (c.tokenMint !== null || -c.raw > incidental);
  return (minted !== null && oneSided(changes, minted, received, given)) || (burnt !== null && oneSided(changes, burnt, given, received));
}

/**
 * On one side (`side`: what the wallet received for a mint, gave for a burn) only the `tokens`
 * minted or burnt here, at least one of them; on the other side something else.
 */
function oneSided(changes: BalanceDelta[], tokens: string[], side: (c: BalanceDelta) => boolean, other: (c: BalanceDelta) => boolean): boolean {
  let found = false;
  let otherThing = false;
  for (const c of changes) {
    const mine = c.tokenMint !== null && tokens.includes(c.tokenMint);
    if (side(c)) {
      if (!mine) return false;
      found = true;
    } else if (other(c) && !mine) otherThing = true;
  }
  return found && otherThing;
}

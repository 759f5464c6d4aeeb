/**
 * One internal shape for `getTransaction` results in either `json` or `jsonParsed` encoding.
 *
 * The two encodings differ in how they name accounts (indices vs pubkeys), where lookup-table
 * addresses live (meta.loadedAddresses vs inline accountKeys objects) and whether system/token
 * instructions arrive as base58 data or pre-parsed `info`. Everything downstream works on account
 * indices and on the few instruction kinds that move value, extracted here once per transaction.
 */
import { HistoryError } from '../../../core/errors.js';
import { base58Decode, base58Encode } from '../../shared/base58.js';
import { readU64 } from './bytes.js';
import { logDepthReader } from './program-logs.js';
import { SYSTEM_PROGRAM, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../programs.js';

export interface SolTokenBalance {
  index: number;
  mint: string;
  owner: string | null;
  amount: string;
  decimals: number;
}

/** A value-moving operation of the system or token program (the only ones the decoder reads). */
export type SolOp =
  | { kind: 'token'; src: number; dst: number; auth: number; amount: bigint; mint: string | null }
  | { kind: 'sol'; src: number; dst: number; amount: bigint }
  | { kind: 'init'; account: number; mint: string; owner: string };

/**
 * A token-supply change (MintTo/MintToChecked into `account`, Burn/BurnChecked from it) or an
 * account a System instruction created (CreateAccount, or Allocate after a funding Transfer):
 * read by the wallet's activity (activity.ts), not by the trade decoder. A json-encoded
 * createAccount is left undecoded here (70+ base58 characters, about 2.3 µs each, several per
 * swap): `systemCreateOf` decodes it when asked.
 */
export type SolAccountOp =
  | { kind: 'mint'; account: number; mint: string }
  | { kind: 'burn'; account: number; mint: string }
  | { kind: 'allocate'; account: number; space: bigint }
  | SolCreate;

/** CreateAccount / CreateAccountWithSeed: `funder` paid `lamports` into the new `account` of `space` bytes. */
export interface SolCreate {
  kind: 'create';
  funder: number;
  account: number;
  lamports: bigint;
  space: bigint;
}

export interface SolInstruction {
  program: number;
  /** Account indices into `keys`. */
  accounts: number[];
  /** Base58 instruction data, or null for a jsonParsed instruction that arrived parsed. */
  data: string | null;
  op: SolOp | null;
  accountOp: SolAccountOp | null;
  /** 1 for a top-level instruction, the stackHeight for inner ones. */
  depth: number;
  /** Index into `instructions` of the invoking instruction, -1 for top-level ones. */
  parent: number;
  /** Index of the top-level instruction this one runs under. */
  outer: number;
}

export interface SolTransaction {
  signature: string;
  blockTime: number | null;
  failed: boolean;
  keys: string[];
  signerCount: number;
  preTokenBalances: SolTokenBalance[];
  postTokenBalances: SolTokenBalance[];
  /** meta.preBalances / postBalances: lamports per account index (keys order, lookup-table addresses included). */
  preLamports: readonly number[];
  postLamports: readonly number[];
  /** meta.fee in lamports (base and priority fee), paid by keys[0]. */
  fee: number;
  /** All instructions in execution order: each top-level one followed by its inner ones. */
  instructions: SolInstruction[];
  /** meta.logMessages as the RPC gave them (null when absent); read only when an event is logged. */
  logs: readonly string[] | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- untyped getTransaction JSON, normalised here into typed shapes
type Json = Record<string, any>;

function tokenBalances(list: unknown): SolTokenBalance[] {
  if (!Array.isArray(list)) return [];
  const out: SolTokenBalance[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const b = list[i] as Json;
    out[i] = {
      index: b.accountIndex,
      mint: b.mint,
      owner: b.owner ?? null,
      amount: b.uiTokenAmount?.amount ?? '0',
      decimals: b.uiTokenAmount?.decimals ?? 0,
    };
  }
  return out;
}

/** Op of a base58-encoded system or token instruction (json encoding, or unparsed jsonParsed). */
function opFromData(programKey: string, accounts: number[], data: string, keys: string[]): SolOp | SolAccountOp | null {
  if (programKey === TOKEN_PROGRAM || programKey === TOKEN_2022_PROGRAM) {
    // One- and two-byte instructions (close, syncNative, initializeImmutableOwner, ...) encode to
    // at most 3 characters and move nothing: skip them without decoding.
    if (data.length < 4) return null;
    const b = base58Decode(data);
    if (!b || b.length === 0) return null;
    switch (b[0]) {
      case 3: // Transfer { amount: u64 } [source, destination, authority]
        if (b.length < 9 || accounts.length < 3) return null;
        return { kind: 'token', src: accounts[0], dst: accounts[1], auth: accounts[2], amount: readU64(b, 1), mint: null };
      case 12: // TransferChecked { amount: u64, decimals: u8 } [source, mint, destination, authority]
        if (b.length < 9 || accounts.length < 4) return null;
        return { kind: 'token', src: accounts[0], dst: accounts[2], auth: accounts[3], amount: readU64(b, 1), mint: keys[accounts[1]] };
      case 26: // Token-2022 TransferFeeExtension; sub 1 = TransferCheckedWithFee [source, mint, destination, authority]
        if (b[1] !== 1 || b.length < 10 || accounts.length < 4) return null;
        return { kind: 'token', src: accounts[0], dst: accounts[2], auth: accounts[3], amount: readU64(b, 2), mint: keys[accounts[1]] };
      case 1: // InitializeAccount [account, mint, owner, rent]
        if (accounts.length < 3) return null;
        return { kind: 'init', account: accounts[0], mint: keys[accounts[1]], owner: keys[accounts[2]] };
      case 16: // InitializeAccount2 { owner: Pubkey } [account, mint, rent]
      case 18: // InitializeAccount3 { owner: Pubkey } [account, mint]
        if (b.length < 33 || accounts.length < 2) return null;
        return { kind: 'init', account: accounts[0], mint: keys[accounts[1]], owner: base58Encode(b, 1, 32) };
      case 7: // MintTo { amount: u64 } [mint, account, authority]
      case 14: // MintToChecked { amount: u64, decimals: u8 } [mint, account, authority]
        if (accounts.length < 2) return null;
        return { kind: 'mint', account: accounts[1], mint: keys[accounts[0]] };
      case 8: // Burn { amount: u64 } [account, mint, authority]
      case 15: // BurnChecked { amount: u64, decimals: u8 } [account, mint, authority]
        if (accounts.length < 2) return null;
        return { kind: 'burn', account: accounts[0], mint: keys[accounts[1]] };
      default:
        return null;
    }
  }
  if (programKey === SYSTEM_PROGRAM) {
    // Only Transfer (tag 2 + u64 lamports = 12 bytes, 16-17 base58 characters) is read for
    // trades: swaps pay lamports with it. Allocate (tag 8 + u64 space) has the same length and is
    // kept for the activity's rent. createAccount/assign move rent, not trade value, and are
    // skipped by their length without decoding (createAccount is 52 bytes, ~70 characters).
    if (data.length < 14 || data.length > 18) return null;
    const b = base58Decode(data);
    if (!b || b.length < 12) return null;
    const tag = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24);
    if (tag === 2 && accounts.length >= 2) return { kind: 'sol', src: accounts[0], dst: accounts[1], amount: readU64(b, 4) };
    if (tag === 8 && accounts.length >= 1) return { kind: 'allocate', account: accounts[0], space: readU64(b, 4) };
    return null;
  }
  return null;
}

function opFromParsed(programKey: string, parsed: Json, index: (k: unknown) => number): SolOp | SolAccountOp | null {
  const type = parsed?.type;
  const info = parsed?.info as Json | undefined;
  if (!info || typeof type !== 'string') return null;
  if (programKey === SYSTEM_PROGRAM) {
    if (type === 'transfer') {
      return { kind: 'sol', src: index(info.source), dst: index(info.destination), amount: BigInt(info.lamports) };
    }
    if (type === 'allocate') return { kind: 'allocate', account: index(info.account), space: BigInt(info.space) };
    if (type === 'createAccount' || type === 'createAccountWithSeed') {
      return { kind: 'create', funder: index(info.source), account: index(info.newAccount), lamports: BigInt(info.lamports), space: BigInt(info.space) };
    }
    return null;
  }
  switch (type) {
    case 'transfer':
    case 'transferChecked':
    case 'transferCheckedWithFee': {
      // Only the checked forms name the mint and carry the amount as a tokenAmount.
      const checked = type !== 'transfer';
      return {
        kind: 'token',
        src: index(info.source),
        dst: index(info.destination),
        auth: index(info.authority ?? info.multisigAuthority),
        amount: BigInt(checked ? (info.tokenAmount?.amount ?? info.amount) : info.amount),
        mint: checked ? info.mint : null,
      };
    }
    case 'initializeAccount':
    case 'initializeAccount2':
    case 'initializeAccount3':
      return { kind: 'init', account: index(info.account), mint: info.mint, owner: info.owner };
    case 'mintTo':
    case 'mintToChecked':
      return { kind: 'mint', account: index(info.account), mint: info.mint };
    case 'burn':
    case 'burnChecked':
      return { kind: 'burn', account: index(info.account), mint: info.mint };
    default:
      return null;
  }
}

/** True when the inner instructions do not record their stackHeight (all or none do). */
function stackHeightsMissing(groups: unknown): boolean {
  if (!Array.isArray(groups)) return false;
  for (const g of groups as Json[]) {
    const first = Array.isArray(g?.instructions) ? g.instructions[0] : undefined;
    if (first) return typeof first.stackHeight !== 'number';
  }
  return false;
}

/**
 * Normalizes a getTransaction result (json or jsonParsed). Anything else (null for an unknown
 * signature, an error body) throws HistoryError `rpc_malformed_response`.
 */
export function normalizeTransaction(raw: unknown): SolTransaction {
  const tx = raw as Json;
  const message = tx?.transaction?.message;
  const meta = tx?.meta;
  if (!message || !meta || !Array.isArray(message.accountKeys) || !Array.isArray(message.instructions)) {
    throw new HistoryError('rpc_malformed_response', 'not a getTransaction result', {
      context: { got: raw === null ? 'null' : typeof raw },
    });
  }
  const rawKeys: unknown[] = message.accountKeys;
  const parsedEncoding = rawKeys.length > 0 && typeof rawKeys[0] === 'object';
  let keys: string[];
  let signerCount: number;
  if (parsedEncoding) {
    // jsonParsed: accountKeys already include lookup-table addresses, each with its signer flag.
    keys = new Array(rawKeys.length);
    signerCount = 0;
    for (let i = 0; i < rawKeys.length; i++) {
      const k = rawKeys[i] as Json;
      keys[i] = k.pubkey;
      if (k.signer) signerCount = i + 1;
    }
  } else {
    keys = rawKeys as string[];
    const loaded = meta.loadedAddresses;
    if (loaded && (loaded.writable?.length || loaded.readonly?.length)) {
      keys = keys.concat(loaded.writable ?? [], loaded.readonly ?? []);
    }
    signerCount = message.header?.numRequiredSignatures ?? 1;
  }

  let keyMap: Map<string, number> | null = null;
  const index = (k: unknown): number => {
    if (typeof k !== 'string') return -1;
    if (!keyMap) {
      keyMap = new Map();
      for (let i = 0; i < keys.length; i++) if (!keyMap.has(keys[i])) keyMap.set(keys[i], i);
    }
    return keyMap.get(k) ?? -1;
  };

  const instructions: SolInstruction[] = [];
  const pushIx = (ix: Json, depth: number, parent: number, outer: number): number => {
    let program: number;
    let accounts: number[];
    let decoded: SolOp | SolAccountOp | null = null;
    let data: string | null = null;
    if (typeof ix.programIdIndex === 'number') {
      program = ix.programIdIndex;
      accounts = ix.accounts ?? [];
      data = ix.data ?? '';
    } else {
      program = index(ix.programId);
      if (ix.parsed !== undefined) {
        accounts = [];
        if (typeof ix.parsed === 'object') decoded = opFromParsed(ix.programId, ix.parsed, index);
      } else {
        const accs: unknown[] = ix.accounts ?? [];
        accounts = new Array(accs.length);
        for (let i = 0; i < accs.length; i++) accounts[i] = index(accs[i]);
        data = ix.data ?? '';
      }
    }
    const programKey = keys[program];
    if (data !== null && (programKey === TOKEN_PROGRAM || programKey === TOKEN_2022_PROGRAM || programKey === SYSTEM_PROGRAM)) {
      decoded = opFromData(programKey, accounts, data, keys);
    }
    let op: SolOp | null = null;
    let accountOp: SolAccountOp | null = null;
    if (decoded !== null) {
      if (decoded.kind === 'token' || decoded.kind === 'sol' || decoded.kind === 'init') op = decoded;
      else accountOp = decoded;
    }
    instructions.push({ program, accounts, data, op, accountOp, depth, parent, outer });
    return instructions.length - 1;
  };

  const innerByOuter = new Map<number, Json[]>();
  if (Array.isArray(meta.innerInstructions)) {
    for (const group of meta.innerInstructions) innerByOuter.set(group.index, group.instructions ?? []);
  }
  const outerIxs: Json[] = message.instructions;
  const logDepth = stackHeightsMissing(meta.innerInstructions) && Array.isArray(meta.logMessages) ? logDepthReader(meta.logMessages) : null;
  const programKeyOf = (ix: Json): string => (typeof ix.programIdIndex === 'number' ? keys[ix.programIdIndex] : ix.programId);
  const stack: number[] = [];
  for (let o = 0; o < outerIxs.length; o++) {
    logDepth?.(programKeyOf(outerIxs[o]), true);
    const top = pushIx(outerIxs[o], 1, -1, o);
    const inner = innerByOuter.get(o);
    if (!inner) continue;
    stack.length = 0;
    stack[1] = top;
    for (const ix of inner) {
      // Transactions before stackHeight was recorded (2023) lack it: their log's invoke lines give
      // the depth, else they are taken as direct children.
      let depth: number = typeof ix.stackHeight === 'number' ? ix.stackHeight : (logDepth?.(programKeyOf(ix), false) ?? 2);
      if (depth < 2) depth = 2;
      let parentDepth = depth - 1;
      while (parentDepth > 1 && stack[parentDepth] === undefined) parentDepth--;
      const me = pushIx(ix, depth, stack[parentDepth], o);
      stack[depth] = me;
      stack.length = depth + 1;
    }
  }

  const sig = tx.transaction.signatures;
  return {
    signature: Array.isArray(sig) && typeof sig[0] === 'string' ? sig[0] : '',
    blockTime: typeof tx.blockTime === 'number' ? tx.blockTime : null,
    failed: meta.err !== null && meta.err !== undefined,
    keys,
    signerCount,
    preTokenBalances: tokenBalances(meta.preTokenBalances),
    postTokenBalances: tokenBalances(meta.postTokenBalances),
    preLamports: Array.isArray(meta.preBalances) ? meta.preBalances : [],
    postLamports: Array.isArray(meta.postBalances) ? meta.postBalances : [],
    fee: typeof meta.fee === 'number' ? meta.fee : 0,
    instructions,
    logs: Array.isArray(meta.logMessages) ? meta.logMessages : null,
  };
}

/**
 * A json-encoded System CreateAccount (tag 0: lamports u64, space u64, owner; 52 bytes) or
 * CreateAccountWithSeed (tag 3: base, seed as u64 length + bytes, lamports u64, space u64, owner),
 * accounts [funder, new account, ...]; the jsonParsed form arrives decoded in `accountOp`.
 */
export function systemCreateOf(ix: SolInstruction): SolCreate | null {
  if (ix.accountOp?.kind === 'create') return ix.accountOp;
  const data = ix.data;
  // 52 bytes encode to about 70 characters; Transfer (12 bytes) and the other short System
  // instructions stay below 60 and are not decoded.
  if (data === null || data.length < 60 || ix.accounts.length < 2) return null;
  const b = base58Decode(data);
  if (!b || b.length < 52 || b[1] !== 0 || b[2] !== 0 || b[3] !== 0) return null;
  let o: number;
  if (b[0] === 0) o = 4;
  else if (b[0] === 3) {
    if (b.length < 44) return null;
    // base (32) then the seed's u64 length; seeds are at most 32 bytes (MAX_SEED_LEN).
    const seedLen = b[36];
    o = 44 + seedLen;
    if (seedLen > 32 || b.length < o + 48) return null;
  } else return null;
  return { kind: 'create', funder: ix.accounts[0], account: ix.accounts[1], lamports: readU64(b, o), space: readU64(b, o + 8) };
}

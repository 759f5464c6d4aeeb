/**
 * Synthesised on-chain accounts for test mints: the mint account (SPL Token or Token-2022 with
 * the TokenMetadata extension) and the Metaplex metadata PDA, laid out byte for byte as on chain,
 * so the client's borsh decoding is exercised for real.
 */
import { address, getAddressEncoder, getProgramDerivedAddress } from '@solana/kit';
import type { MintFacts } from './fixtures.js';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const METADATA_PROGRAM = 'metaqbxxUerdq28cj1RbAWkYQm3ybzjb6a8bt518x1s';

export interface ReplayAccount {
  owner: string;
  data: Uint8Array;
  lamports: number;
}

export interface TestMint {
  mint: string;
  decimals: number;
  /** Token program owning the mint. */
  program: 'token' | 'token-2022';
  /** Where the symbol lives; 'none' leaves the mint without metadata. */
  metadata: 'metaplex' | 'token-2022' | 'none';
  symbol: string;
  name: string;
}

const enc = new TextEncoder();

function borshString(s: string, padTo = 0): Uint8Array {
  const body = enc.encode(s);
  const len = Math.max(body.length, padTo);
  const out = new Uint8Array(4 + len);
  new DataView(out.buffer).setUint32(0, len, true);
  out.set(body, 4); // the rest stays NUL, as Metaplex pads name (32), symbol (10) and uri (200)
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const addressBytes = (a: string) => new Uint8Array(getAddressEncoder().encode(address(a)));

/** SPL mint base layout (82 bytes): no authorities, supply 1e15, decimals, initialised. */
function mintBase(decimals: number): Uint8Array {
  const b = new Uint8Array(82);
  const v = new DataView(b.buffer);
  v.setBigUint64(36, 10n ** 15n, true);
  b[44] = decimals;
  b[45] = 1;
  return b;
}

function tlv(type: number, value: Uint8Array): Uint8Array {
  const head = new Uint8Array(4);
  new DataView(head.buffer).setUint16(0, type, true);
  new DataView(head.buffer).setUint16(2, value.length, true);
  return concat([head, value]);
}

export function mintAccount(t: TestMint): ReplayAccount {
  if (t.program === 'token') return { owner: TOKEN_PROGRAM, data: mintBase(t.decimals), lamports: 1_461_600 };
  const base = new Uint8Array(166);
  base.set(mintBase(t.decimals));
  base[165] = 1; // AccountType::Mint
  const parts: Uint8Array[] = [base];
  if (t.metadata === 'token-2022') {
    const mintBytes = addressBytes(t.mint);
    // MetadataPointer (18): authority + metadata address (the mint itself).
    parts.push(tlv(18, concat([new Uint8Array(32), mintBytes])));
    // TokenMetadata (19): update authority, mint, name, symbol, uri, additional_metadata (empty vec).
    parts.push(
      tlv(
        19,
        concat([
          new Uint8Array(32),
          mintBytes,
          borshString(t.name),
          borshString(t.symbol),
          borshString(`https://example.invalid/${t.mint}.json`),
          new Uint8Array(4),
        ]),
      ),
    );
  }
  return { owner: TOKEN_2022_PROGRAM, data: concat(parts), lamports: 4_000_000 };
}

export function metaplexAccount(t: TestMint): ReplayAccount {
  const data = concat([
    new Uint8Array([4]), // Key::MetadataV1
    new Uint8Array(32), // update authority
    addressBytes(t.mint),
    borshString(t.name, 32),
    borshString(t.symbol, 10),
    borshString(`https://example.invalid/${t.mint}.json`, 200),
    new Uint8Array([0xf4, 0x01, 0, 0, 1, 1]), // seller fee 500, no creators, primary sale, mutable
  ]);
  return { owner: METADATA_PROGRAM, data, lamports: 5_616_720 };
}

export async function metaplexPda(mint: string): Promise<string> {
  const [pda] = await getProgramDerivedAddress({
    programAddress: address(METADATA_PROGRAM),
    seeds: ['metadata', addressBytes(METADATA_PROGRAM), addressBytes(mint)],
  });
  return pda;
}

/** A deterministic test symbol for a mint: "T" + its first 5 characters, upper-cased. */
export function testSymbolOf(mint: string): string {
  return `T${mint.slice(0, 5).toUpperCase()}`;
}

/** Test mints for fixture mints: Token-2022 mints carry the extension, the others Metaplex. */
export function testMintsFrom(facts: Iterable<MintFacts>): TestMint[] {
  const out = new Map<string, TestMint>();
  for (const f of facts) {
    if (out.has(f.mint)) continue;
    const t22 = f.programId === TOKEN_2022_PROGRAM;
    out.set(f.mint, {
      mint: f.mint,
      decimals: f.decimals,
      program: t22 ? 'token-2022' : 'token',
      metadata: t22 ? 'token-2022' : 'metaplex',
      symbol: testSymbolOf(f.mint),
      name: `Test ${f.mint.slice(0, 8)}`,
    });
  }
  return [...out.values()];
}

/** The accounts (mint, and the Metaplex PDA where used) of test mints, by address. */
export async function buildTokenAccounts(mints: Iterable<TestMint>): Promise<Map<string, ReplayAccount>> {
  const out = new Map<string, ReplayAccount>();
  for (const t of mints) {
    out.set(t.mint, mintAccount(t));
    if (t.metadata === 'metaplex') out.set(await metaplexPda(t.mint), metaplexAccount(t));
  }
  return out;
}

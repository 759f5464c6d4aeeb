import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { base58Encode } from '../../src/lib/chains/shared/base58.js';
import { decodeSolanaTransaction, solanaSigners } from '../../src/lib/chains/sol/decode/decode-transaction.js';
import { isHistoryError } from '../../src/lib/core/errors.js';
import { isDecimalLiteral } from '../../src/lib/core/trade.js';
import { asJsonParsedShape } from '../support/sol-replay/fixtures.js';

const DIR = fileURLToPath(new URL('../fixtures/solana/', import.meta.url));

interface Expected {
  signature: string;
  checked: string;
  wallets: Record<string, unknown[]>;
}

/**
 * Where a fixture's files live: beside the manifest, or in partial/ for real chain data whose
 * source left out the slot and block time (MANIFEST notes say what was recorded), which the replay
 * RPC cannot serve.
 */
function fixturePath(signature: string, suffix: string): string {
  const top = `${DIR}${signature}${suffix}`;
  return existsSync(top) ? top : `${DIR}partial/${signature}${suffix}`;
}

function loadTx(signature: string): any {
  const raw = JSON.parse(readFileSync(fixturePath(signature, '.json'), 'utf8'));
  // Tolerate a fixture saved as a whole JSON-RPC response rather than its `result`.
  return raw.result ?? raw;
}

const manifest = readFileSync(`${DIR}MANIFEST.tsv`, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [signature, , venue, kind, , encoding] = line.split('\t');
    return { signature, venue, kind, encoding };
  });

describe('Solana decoder against hand-checked real mainnet transactions', () => {
  it('covers every fixture of the manifest', () => {
    expect(manifest.length).toBe(77);
  });

  for (const { signature, venue, kind, encoding } of manifest) {
    it(`${signature.slice(0, 10)}… ${venue} (${kind}, ${encoding})`, () => {
      const tx = loadTx(signature);
      const expected: Expected = JSON.parse(readFileSync(fixturePath(signature, '.expected.json'), 'utf8'));
      expect(expected.signature).toBe(signature);
      expect(expected.checked.length).toBeGreaterThan(20);
      // Every signer (the fee payer is signer 0) has an expectation, and only signers.
      expect(Object.keys(expected.wallets).sort()).toEqual([...solanaSigners(tx)].sort());
      for (const [wallet, trades] of Object.entries(expected.wallets)) {
        const got = decodeSolanaTransaction(tx, wallet);
        expect(got, `wallet ${wallet}`).toEqual(trades);
        for (const t of got) {
          if (t.amount !== null) expect(isDecimalLiteral(t.amount)).toBe(true);
          if (t.amountSol !== null) expect(isDecimalLiteral(t.amountSol)).toBe(true);
        }
      }
    });
  }

  it('decodes a json-encoded fixture the same when it arrives in the jsonParsed shape', () => {
    // jsonParsed names accounts by pubkey, carries lookup-table addresses inside accountKeys with
    // signer flags, and leaves unknown programs' data in base58: rebuild that shape from each json
    // fixture (without the pre-parsed system/token instructions, which the real fixtures cover).
    let compared = 0;
    for (const { signature, encoding } of manifest) {
      if (encoding !== 'json') continue;
      const tx = loadTx(signature);
      const parsedShape = asJsonParsedShape(tx);
      const expected: Expected = JSON.parse(readFileSync(fixturePath(signature, '.expected.json'), 'utf8'));
      for (const [wallet, trades] of Object.entries(expected.wallets)) {
        expect(decodeSolanaTransaction(parsedShape, wallet), `${signature} ${wallet}`).toEqual(trades);
      }
      expect(solanaSigners(parsedShape)).toEqual(solanaSigners(tx));
      compared++;
    }
    expect(compared).toBe(41);
  });

  it('gives nothing to a wallet that did not sign, even when the swap paid out to it', () => {
    // 5SnG…: a keeper signs a limit-order fill whose Jupiter swap moves FMFot66s…'s tokens.
    const tx = loadTx('5SnGKXqNQ6zYGfNHQwHWwRtbxnYHUHLbANXgpvCLuXD1LA5paStRBcuXwu2T5eM9xsVWFQTzeUNwPWx6UAQhUb2t');
    expect(decodeSolanaTransaction(tx, 'FMFot66s1WTXW2uhfXRmvLtCYB4hEy3SVatQWCQNkH1H')).toEqual([]);
    // 43W2…: a pool authority account, not a signer.
    const bundle = loadTx('43W2EWitbiL5cANu6b82otcRyBAJ7gWZfqvoJKuev3MY4JKSp8oKQmePx92ApWC6aT3oYuUZjt27QyQpQD2o8yK2');
    expect(decodeSolanaTransaction(bundle, '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1')).toEqual([]);
  });

  it('gives nothing for a failed transaction', () => {
    const tx = structuredClone(loadTx('2NPwsoX7NyfarDBhGDrewJKdNccVS1X9dX2uWCtTMRamXhzXk8PHnGL25yneF5rmR7LPSXH8gKciSgPAe9nP7VU4'));
    const wallet = solanaSigners(tx)[0];
    expect(decodeSolanaTransaction(tx, wallet)).toHaveLength(1);
    tx.meta.err = { InstructionError: [5, { Custom: 6001 }] };
    expect(decodeSolanaTransaction(tx, wallet)).toEqual([]);
  });

  it('refuses something that is not a getTransaction result', () => {
    for (const bad of [null, {}, { transaction: {} }, 'tx']) {
      let err: unknown;
      try {
        decodeSolanaTransaction(bad, 'AG27WXxPym3K73JFKtpRxwbMfnRnuPu5bn6juzcvq5rp');
      } catch (e) {
        err = e;
      }
      expect(isHistoryError(err, 'rpc_malformed_response')).toBe(true);
    }
  });

  it('lists the signers of json and jsonParsed encodings alike', () => {
    // json: header.numRequiredSignatures; jsonParsed: accountKeys[].signer.
    expect(solanaSigners(loadTx('JBnrBbgqh9jRUkUD68GdwBWoxWyz8SqEuM4eYqR6cyMMofFD43XQKjWBMHvRanPuzSU9UC8CFBQH1brAmvjxZpA'))).toHaveLength(4);
    expect(solanaSigners(loadTx('3S2vFszSSCxdeS8JJgzhEk8MxVsDA6m1NMm8rRVfAJnKw2nepVre4kXUBwtCCqY91duXyT3wv9nCwZgUJcj9btj6'))).toHaveLength(5);
  });
});

// ---------------------------------------------------------------------------------------------
// Constructed transactions for venues no real fixture covers yet, built in the `json` encoding.

const WALLET = base58Encode(new Uint8Array(32).fill(7));
const key = (n: number) => base58Encode(new Uint8Array(32).fill(n));
const WSOL = 'So11111111111111111111111111111111111111112';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSTEM = '11111111111111111111111111111111';

function u64le(v: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
  return out;
}
const tokenTransfer = (amount: bigint) => base58Encode(Uint8Array.from([3, ...u64le(amount)]));
const systemTransfer = (lamports: bigint) => base58Encode(Uint8Array.from([2, 0, 0, 0, ...u64le(lamports)]));

interface Built {
  keys: string[];
  outer: { program: number; accounts: number[]; data: string };
  inner: { program: number; accounts: number[]; data: string; stackHeight: number }[];
  pre: { index: number; mint: string; owner: string; amount: bigint; decimals: number }[];
  post: { index: number; mint: string; owner: string; amount: bigint; decimals: number }[];
}

function buildTx(b: Built): unknown {
  const bal = (x: Built['pre'][number]) => ({
    accountIndex: x.index,
    mint: x.mint,
    owner: x.owner,
    programId: TOKEN,
    uiTokenAmount: { amount: String(x.amount), decimals: x.decimals, uiAmount: null, uiAmountString: '' },
  });
  return {
    blockTime: 1_750_000_000,
    slot: 1,
    version: 0,
    meta: {
      err: null,
      fee: 5000,
      preBalances: b.keys.map(() => 0),
      postBalances: b.keys.map(() => 0),
      preTokenBalances: b.pre.map(bal),
      postTokenBalances: b.post.map(bal),
      innerInstructions: [
        { index: 0, instructions: b.inner.map((i) => ({ programIdIndex: i.program, accounts: i.accounts, data: i.data, stackHeight: i.stackHeight })) },
      ],
      logMessages: [],
      loadedAddresses: { writable: [], readonly: [] },
    },
    transaction: {
      signatures: ['constructed1111111111111111111111111111111111111111111111111111111111111111111111111'],
      message: {
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 3 },
        accountKeys: b.keys,
        recentBlockhash: key(9),
        instructions: [{ programIdIndex: b.outer.program, accounts: b.outer.accounts, data: b.outer.data, stackHeight: null }],
      },
    },
  };
}

describe('venues without a real fixture (constructed transactions; no real transaction covers them yet)', () => {
  it('Meteora DBC: a WSOL -> token swap is a meteora-dbc buy with the pool transfer as its SOL amount', () => {
    // keys: 0 wallet, 1 wallet WSOL, 2 wallet token ATA, 3 pool quote vault, 4 pool base vault,
    // 5 pool authority, 6 mint, 7 DBC program, 8 token program.
    const mint = key(30);
    const keys = [WALLET, key(11), key(12), key(13), key(14), key(15), mint, 'dbcij3LWUppWqq96dh6gJWwBifmcGfLSB5D4DuSMaqN', TOKEN];
    const tx = buildTx({
      keys,
      outer: { program: 7, accounts: [5, 0, 1, 2, 3, 4, 6, 8], data: base58Encode(Uint8Array.from([0xf8, 0xc6, 0x9e, 0x91, 0xe1, 0x75, 0x87, 0xc8])) },
      inner: [
        { program: 8, accounts: [1, 3, 0], data: tokenTransfer(250_000_000n), stackHeight: 2 },
        { program: 8, accounts: [4, 2, 5], data: tokenTransfer(1_234_567_890n), stackHeight: 2 },
      ],
      pre: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 250_000_000n, decimals: 9 },
        { index: 3, mint: WSOL, owner: keys[5], amount: 0n, decimals: 9 },
        { index: 4, mint, owner: keys[5], amount: 10_000_000_000n, decimals: 6 },
      ],
      post: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 0n, decimals: 9 },
        { index: 2, mint, owner: WALLET, amount: 1_234_567_890n, decimals: 6 },
        { index: 3, mint: WSOL, owner: keys[5], amount: 250_000_000n, decimals: 9 },
        { index: 4, mint, owner: keys[5], amount: 8_765_432_110n, decimals: 6 },
      ],
    });
    expect(decodeSolanaTransaction(tx, WALLET)).toEqual([
      {
        signature: 'constructed1111111111111111111111111111111111111111111111111111111111111111111111111',
        side: 'buy',
        tokenMint: mint,
        amountSol: '0.25',
        amount: '1234.56789',
        dex: 'meteora-dbc',
        blockTime: '2025-06-15T15:06:40Z',
        leg: 0,
      },
    ]);
  });

  it('OpenBook v2: a taker sell of a token for WSOL is an openbook sell with the market vault transfer as its SOL amount', () => {
    // keys: 0 wallet, 1 wallet WSOL, 2 wallet token account, 3 market base vault, 4 market quote vault,
    // 5 market authority, 6 mint, 7 OpenBook v2 program, 8 token program.
    const mint = key(50);
    const keys = [WALLET, key(51), key(52), key(53), key(54), key(55), mint, 'opnb2LAfJYbRMAHHvqjCwQxanZn7ReEHp1k81EohpZb', TOKEN];
    const tx = buildTx({
      keys,
      // place_take_order discriminator (sha256("global:place_take_order")[..8]); the decoder keys on the program, not on it.
      outer: { program: 7, accounts: [0, 5, 3, 4, 2, 1, 6, 8], data: base58Encode(Uint8Array.from([3, 44, 71, 3, 26, 199, 203, 85])) },
      inner: [
        { program: 8, accounts: [2, 3, 0], data: tokenTransfer(75_000_000n), stackHeight: 2 },
        { program: 8, accounts: [4, 1, 5], data: tokenTransfer(1_500_000_001n), stackHeight: 2 },
      ],
      pre: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 0n, decimals: 9 },
        { index: 2, mint, owner: WALLET, amount: 75_000_000n, decimals: 6 },
        { index: 3, mint, owner: keys[5], amount: 1_000_000_000n, decimals: 6 },
        { index: 4, mint: WSOL, owner: keys[5], amount: 9_000_000_000n, decimals: 9 },
      ],
      post: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 1_500_000_001n, decimals: 9 },
        { index: 2, mint, owner: WALLET, amount: 0n, decimals: 6 },
        { index: 3, mint, owner: keys[5], amount: 1_075_000_000n, decimals: 6 },
        { index: 4, mint: WSOL, owner: keys[5], amount: 7_499_999_999n, decimals: 9 },
      ],
    });
    expect(decodeSolanaTransaction(tx, WALLET)).toEqual([
      {
        signature: 'constructed1111111111111111111111111111111111111111111111111111111111111111111111111',
        side: 'sell',
        tokenMint: mint,
        amountSol: '1.500000001',
        amount: '75',
        dex: 'openbook',
        blockTime: '2025-06-15T15:06:40Z',
        leg: 0,
      },
    ]);
  });

  it('Moonit: a sell pays SOL out of the curve without a transfer, so the TradeEvent collateral_amount is the figure', () => {
    // keys: 0 wallet, 1 wallet token ATA, 2 curve, 3 curve token account, 4 mint, 5 Moonit, 6 token program, 7 event authority.
    const mint = key(40);
    const curve = key(42);
    const keys = [WALLET, key(41), curve, key(43), mint, 'MoonCVVNZFSYkqNXP6bxHLPL6QQJiMagDL3qcqUQTrG', TOKEN, key(44)];
    // Moonit TradeEvent (emit_cpi): tag, discriminator, amount, collateral_amount, dex_fee,
    // helio_fee, allocation, curve, cost_token, sender, trade_type (1 = sell), label "".
    const ev = [
      ...[0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d],
      ...[0xbd, 0xdb, 0x7f, 0xd3, 0x4e, 0xe6, 0x61, 0xee],
      ...u64le(5_000_000_000n),
      ...u64le(812_345_678n),
      ...u64le(8_123_456n),
      ...u64le(1_000_000n),
      ...u64le(0n),
      ...new Uint8Array(32).fill(42),
      ...new Uint8Array(32).fill(0),
      ...new Uint8Array(32).fill(7),
      1,
      0,
      0,
      0,
      0,
    ];
    const tx = buildTx({
      keys,
      outer: { program: 5, accounts: [0, 1, 2, 3, 4, 6], data: base58Encode(Uint8Array.from([0x33, 0xe6, 0x85, 0xa4, 0x01, 0x7f, 0x83, 0xad])) },
      inner: [
        { program: 6, accounts: [1, 3, 0], data: tokenTransfer(5_000_000_000n), stackHeight: 2 },
        { program: 5, accounts: [7], data: base58Encode(Uint8Array.from(ev)), stackHeight: 2 },
      ],
      pre: [
        { index: 1, mint, owner: WALLET, amount: 5_000_000_000n, decimals: 9 },
        { index: 3, mint, owner: curve, amount: 100_000_000_000n, decimals: 9 },
      ],
      post: [
        { index: 1, mint, owner: WALLET, amount: 0n, decimals: 9 },
        { index: 3, mint, owner: curve, amount: 105_000_000_000n, decimals: 9 },
      ],
    });
    const [trade, ...rest] = decodeSolanaTransaction(tx, WALLET);
    expect(rest).toEqual([]);
    expect(trade).toMatchObject({ side: 'sell', tokenMint: mint, amountSol: '0.812345678', amount: '5', dex: 'moonit', leg: 0 });
  });

  it('an unknown program that swaps native for the wallet\'s token is a trade with dex "unknown"', () => {
    // keys: 0 wallet, 1 wallet token ATA, 2 pool, 3 pool token vault, 4 mint, 5 unknown program, 6 token, 7 system.
    const mint = key(50);
    const keys = [WALLET, key(51), key(52), key(53), mint, key(55), TOKEN, SYSTEM];
    const tx = buildTx({
      keys,
      outer: { program: 5, accounts: [0, 1, 2, 3, 4, 6, 7], data: base58Encode(Uint8Array.from([1, 2, 3])) },
      inner: [
        { program: 7, accounts: [0, 2], data: systemTransfer(1_500_000_000n), stackHeight: 2 },
        { program: 6, accounts: [3, 1, 2], data: tokenTransfer(42_000_000n), stackHeight: 2 },
      ],
      pre: [{ index: 3, mint, owner: keys[2], amount: 100_000_000n, decimals: 6 }],
      post: [
        { index: 1, mint, owner: WALLET, amount: 42_000_000n, decimals: 6 },
        { index: 3, mint, owner: keys[2], amount: 58_000_000n, decimals: 6 },
      ],
    });
    expect(decodeSolanaTransaction(tx, WALLET)).toMatchObject([{ side: 'buy', tokenMint: mint, amountSol: '1.5', amount: '42', dex: 'unknown' }]);
  });

  it('a plain token transfer to the wallet through the same unknown program is not a trade', () => {
    const mint = key(60);
    const keys = [WALLET, key(61), key(62), key(63), mint, key(65), TOKEN, SYSTEM];
    const tx = buildTx({
      keys,
      outer: { program: 5, accounts: [0, 1, 2, 3, 4, 6, 7], data: base58Encode(Uint8Array.from([9])) },
      inner: [{ program: 6, accounts: [3, 1, 2], data: tokenTransfer(42_000_000n), stackHeight: 2 }],
      pre: [{ index: 3, mint, owner: keys[2], amount: 100_000_000n, decimals: 6 }],
      post: [
        { index: 1, mint, owner: WALLET, amount: 42_000_000n, decimals: 6 },
        { index: 3, mint, owner: keys[2], amount: 58_000_000n, decimals: 6 },
      ],
    });
    expect(decodeSolanaTransaction(tx, WALLET)).toEqual([]);
  });

  it('DFlow token-to-token route with a fee taken between the legs: dflow slug, each leg its own venue figure', () => {
    // No shared fixture shows DFlow or a fee between the legs of a token-to-token route, so this
    // transaction is constructed. The wallet sells 5 A on Raydium CPMM for 1 SOL (WSOL into its
    // temporary account), 0.01 SOL of it goes to a fee account under the DFlow program, and the
    // remaining 0.99 SOL buys 0.777 B on Orca. decisions.md: the sell's amountSol is what its venue
    // paid out (1), the buy's what its venue took in (0.99); both take the aggregator's slug.
    // keys: 0 wallet, 1 wallet WSOL temp, 2 wallet A ATA, 3 wallet B ATA, 4 CPMM WSOL vault,
    // 5 CPMM A vault, 6 CPMM authority, 7 Orca WSOL vault, 8 Orca B vault, 9 Orca authority,
    // 10 mint A, 11 mint B, 12 DFlow, 13 Raydium CPMM, 14 Orca Whirlpool, 15 token program,
    // 16 fee WSOL account, 17 fee owner.
    const [mintA, mintB] = [key(90), key(91)];
    const keys = [
      WALLET,
      key(81),
      key(82),
      key(83),
      key(84),
      key(85),
      key(86),
      key(87),
      key(88),
      key(89),
      mintA,
      mintB,
      'DF1ow4tspfHX9JwWJsAb9epbkA8hmpSEAtxXy1V27QBH',
      'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C',
      'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc',
      TOKEN,
      key(92),
      key(93),
    ];
    const tx = buildTx({
      keys,
      outer: { program: 12, accounts: [0, 1, 2, 3, 13, 14, 15], data: base58Encode(Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8])) },
      inner: [
        { program: 13, accounts: [6, 0, 2, 1, 5, 4, 15], data: base58Encode(Uint8Array.from([9, 9, 9, 9, 9, 9, 9, 9])), stackHeight: 2 },
        { program: 15, accounts: [2, 5, 0], data: tokenTransfer(5_000_000n), stackHeight: 3 },
        { program: 15, accounts: [4, 1, 6], data: tokenTransfer(1_000_000_000n), stackHeight: 3 },
        { program: 15, accounts: [1, 16, 0], data: tokenTransfer(10_000_000n), stackHeight: 2 },
        { program: 14, accounts: [9, 0, 1, 3, 7, 8, 15], data: base58Encode(Uint8Array.from([8, 8, 8, 8, 8, 8, 8, 8])), stackHeight: 2 },
        { program: 15, accounts: [1, 7, 0], data: tokenTransfer(990_000_000n), stackHeight: 3 },
        { program: 15, accounts: [8, 3, 9], data: tokenTransfer(777_000n), stackHeight: 3 },
      ],
      pre: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 0n, decimals: 9 },
        { index: 2, mint: mintA, owner: WALLET, amount: 5_000_000n, decimals: 6 },
        { index: 4, mint: WSOL, owner: keys[6], amount: 50_000_000_000n, decimals: 9 },
        { index: 5, mint: mintA, owner: keys[6], amount: 100_000_000n, decimals: 6 },
        { index: 7, mint: WSOL, owner: keys[9], amount: 40_000_000_000n, decimals: 9 },
        { index: 8, mint: mintB, owner: keys[9], amount: 90_000_000n, decimals: 6 },
        { index: 16, mint: WSOL, owner: keys[17], amount: 0n, decimals: 9 },
      ],
      post: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 0n, decimals: 9 },
        { index: 2, mint: mintA, owner: WALLET, amount: 0n, decimals: 6 },
        { index: 3, mint: mintB, owner: WALLET, amount: 777_000n, decimals: 6 },
        { index: 4, mint: WSOL, owner: keys[6], amount: 49_000_000_000n, decimals: 9 },
        { index: 5, mint: mintA, owner: keys[6], amount: 105_000_000n, decimals: 6 },
        { index: 7, mint: WSOL, owner: keys[9], amount: 40_990_000_000n, decimals: 9 },
        { index: 8, mint: mintB, owner: keys[9], amount: 89_223_000n, decimals: 6 },
        { index: 16, mint: WSOL, owner: keys[17], amount: 10_000_000n, decimals: 9 },
      ],
    });
    const common = {
      signature: 'constructed1111111111111111111111111111111111111111111111111111111111111111111111111',
      dex: 'dflow',
      blockTime: '2025-06-15T15:06:40Z',
    };
    expect(decodeSolanaTransaction(tx, WALLET)).toEqual([
      { ...common, side: 'sell', tokenMint: mintA, amountSol: '1', amount: '5', leg: 0 },
      { ...common, side: 'buy', tokenMint: mintB, amountSol: '0.99', amount: '0.777', leg: 1 },
    ]);
  });

  it('an unknown bot program wrapping a known venue is not a venue: its fee and wrap transfers do not count', () => {
    // keys: 0 wallet, 1 wallet WSOL temp, 2 wallet token ATA, 3 pool WSOL vault, 4 pool token vault,
    // 5 pool authority, 6 mint, 7 bot program (unknown), 8 Raydium CPMM, 9 token, 10 system, 11 bot fee wallet.
    const mint = key(70);
    // 12 bot-owned token account, 13 bot authority PDA.
    const keys = [
      WALLET,
      key(71),
      key(72),
      key(73),
      key(74),
      key(75),
      mint,
      key(77),
      'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C',
      TOKEN,
      SYSTEM,
      key(78),
      key(79),
      key(80),
    ];
    const tx = buildTx({
      keys,
      outer: { program: 7, accounts: [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11], data: base58Encode(Uint8Array.from([7, 7])) },
      inner: [
        // The bot wraps 2 SOL for the wallet and takes a 0.02 SOL fee (the bot's own transfers).
        { program: 10, accounts: [0, 1], data: systemTransfer(2_000_000_000n), stackHeight: 2 },
        { program: 10, accounts: [0, 11], data: systemTransfer(20_000_000n), stackHeight: 2 },
        // Then calls the pool: 2 WSOL in, 777 tokens out to the bot's own account...
        { program: 8, accounts: [0, 5, 1, 12, 3, 4], data: base58Encode(Uint8Array.from([0x8f, 0xbe, 0x5a, 0xda, 0xc4, 0x1e, 0x33, 0xde])), stackHeight: 2 },
        { program: 9, accounts: [1, 3, 0], data: tokenTransfer(2_000_000_000n), stackHeight: 3 },
        { program: 9, accounts: [4, 12, 5], data: tokenTransfer(777_000_000n), stackHeight: 3 },
        // ...and forwards them to the wallet: the bot's own transfers now move two assets under
        // two authorities, which would look like a swap if the bot counted as a venue.
        { program: 9, accounts: [12, 2, 13], data: tokenTransfer(777_000_000n), stackHeight: 2 },
      ],
      pre: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 0n, decimals: 9 },
        { index: 4, mint, owner: keys[5], amount: 1_000_000_000_000n, decimals: 6 },
      ],
      post: [
        { index: 1, mint: WSOL, owner: WALLET, amount: 0n, decimals: 9 },
        { index: 2, mint, owner: WALLET, amount: 777_000_000n, decimals: 6 },
        { index: 4, mint, owner: keys[5], amount: 999_223_000_000n, decimals: 6 },
      ],
    });
    expect(decodeSolanaTransaction(tx, WALLET)).toMatchObject([{ side: 'buy', amountSol: '2', amount: '777', dex: 'raydium-cpmm', leg: 0 }]);
  });
});

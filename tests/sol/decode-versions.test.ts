/**
 * Program versions the decoder met on real transactions it had never seen (issue 23, item 7):
 * Moonit's trade event in each of its carriers (self-invocation, log line), Jupiter before v4
 * (one leg per top-level instruction), and every aggregator program id of programs.ts.
 *
 * Real transactions come from tests/fixtures/solana (MANIFEST.tsv gives their sources). Where no
 * real transaction of a case was found, the transaction is built from a real one's shape and says
 * so; every expected figure is derived by hand in the comment beside it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { base58Decode, base58Encode } from '../../src/lib/chains/shared/base58.js';
import { decodeSolanaTransaction } from '../../src/lib/chains/sol/decode/decode-transaction.js';
import { normalizeTransaction } from '../../src/lib/chains/sol/decode/normalize.js';
import { programDataByInstruction } from '../../src/lib/chains/sol/decode/program-logs.js';
import { loggedTradeEvent } from '../../src/lib/chains/sol/decode/venue-events.js';
import { MOONIT_PROGRAM, ROUTER_SLUGS } from '../../src/lib/chains/sol/programs.js';

const DIR = fileURLToPath(new URL('../fixtures/solana/', import.meta.url));
const CONSTRUCTED = 'constructed1111111111111111111111111111111111111111111111111111111111111111111111111';
const WSOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSTEM = '11111111111111111111111111111111';

function load(path: string): any {
  const raw = JSON.parse(readFileSync(`${DIR}${path}`, 'utf8'));
  return raw.result ?? raw;
}

function u64le(v: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
  return out;
}
const key = (n: number) => base58Encode(new Uint8Array(32).fill(n));
const bytesOf = (address: string): Uint8Array => base58Decode(address)!;
const tokenTransfer = (amount: bigint) => base58Encode(Uint8Array.from([3, ...u64le(amount)]));
const systemTransfer = (lamports: bigint) => base58Encode(Uint8Array.from([2, 0, 0, 0, ...u64le(lamports)]));

// ---------------------------------------------------------------------------------------------
// Moonit

const MOONIT_BUY = '5yu3PVRzqri8GSVPrXgtaY4p3woyeoKfT7a7Y4PcSYWKFURUqhVkHUQWPkk2pZor7SWP8KrAMsfB6itxJncrgMie';
const EZUG = 'Ezug1uk7oTEULvBcXCngdZuJDmZ8Ed2TKY4oov4GmLLm';
const MOON_MINT = '3cBFsM1wosTJi9yun6kcHhYHyJcut1MNQY28zjC4moon';
const CURVE = '4CYhuDhT4c9ATZpJceoQG8Du4vCjf5ZKvxsyXpJoVub4';

/** Moonit TradeEvent as `emit!` logs it: discriminator, then the IDL's fields in order. */
function moonitEventLog(e: { amount: bigint; collateral: bigint; dexFee: bigint; helioFee: bigint; costToken: string; sell: boolean; sender: string }): string {
  const bytes = Uint8Array.from([
    ...[0xbd, 0xdb, 0x7f, 0xd3, 0x4e, 0xe6, 0x61, 0xee],
    ...u64le(e.amount),
    ...u64le(e.collateral),
    ...u64le(e.dexFee),
    ...u64le(e.helioFee),
    ...u64le(746_352_540_000_000_000n), // allocation: not read
    ...bytesOf(CURVE),
    ...bytesOf(e.costToken),
    ...bytesOf(e.sender),
    e.sell ? 1 : 0,
    ...[5, 0, 0, 0, ...Buffer.from('trade')],
  ]);
  return `Program data: ${Buffer.from(bytes).toString('base64')}`;
}

/**
 * A Moonit sell in the shape of the real buy 5yu3… (same wallet, curve, mint, accounts and
 * instruction order), CONSTRUCTED: no real sell of the log-event version was found in a public
 * source. The Sell instruction carries the arguments of carbon's real sell fixture
 * (decoders/moonshot-decoder/tests/fixtures/sell_ix.json: 157227000000000 tokens, at least 20990579
 * lamports, slippage 100 bps). The curve pays the seller by debiting its own lamports: no System
 * transfer, so the log's TradeEvent is the only record of the SOL. Collateral 21202605 lamports,
 * of which the 1% fee 212026 (60/40 as in the real buy's 9839/6560) goes to the dex and helio fee
 * accounts, leaving the seller 20990579.
 */
function moonitSell(o: { logs: boolean; costToken?: string; via?: string; sender?: string }): any {
  const tx = structuredClone(load(`partial/${MOONIT_BUY}.json`));
  tx.transaction.signatures = [CONSTRUCTED];
  tx.blockTime = 1_727_000_000;
  const sellData = Uint8Array.from([0x33, 0xe6, 0x85, 0xa4, 0x01, 0x7f, 0x83, 0xad, ...u64le(157_227_000_000_000n), ...u64le(20_990_579n), 0, ...u64le(100n)]);
  const moonitIx = tx.transaction.message.instructions[1];
  moonitIx.data = base58Encode(sellData);
  // TransferChecked [source, mint, destination, authority]: the wallet's 6FqN -> the curve's 5Zg9.
  const transferChecked = base58Encode(Uint8Array.from([12, ...u64le(157_227_000_000_000n), 9]));
  const inner = [{ programIdIndex: 11, accounts: [6, 13, 1, 0], data: transferChecked, stackHeight: 2 }];
  const logs = [
    'Program ComputeBudget111111111111111111111111111111 invoke [1]',
    'Program ComputeBudget111111111111111111111111111111 success',
    `Program ${MOONIT_PROGRAM} invoke [1]`,
    'Program log: Instruction: Sell',
    // Program output that mentions frame words must not open or close a frame.
    'Program log: Program 11111111111111111111111111111111 invoke [2] success',
    `Program ${TOKEN} invoke [2]`,
    'Program log: Instruction: TransferChecked',
    `Program ${TOKEN} consumed 6147 of 370747 compute units`,
    `Program ${TOKEN} success`,
    moonitEventLog({
      amount: 157_227_000_000_000n,
      collateral: 21_202_605n,
      dexFee: 127_216n,
      helioFee: 84_810n,
      costToken: o.costToken ?? WSOL,
      sell: true,
      sender: o.sender ?? EZUG,
    }),
    `Program ${MOONIT_PROGRAM} consumed 41000 of 399850 compute units`,
    `Program ${MOONIT_PROGRAM} success`,
    `Program ${SYSTEM} invoke [1]`,
    `Program ${SYSTEM} success`,
  ];
  if (o.via) {
    // The same sell called by another program (a bot, an aggregator) one level down: the Moonit
    // frame and its token transfer move one level deeper in both the instruction list and the log.
    const bot = o.via;
    tx.transaction.message.accountKeys.push(bot);
    const botIndex = tx.transaction.message.accountKeys.length - 1;
    tx.transaction.message.instructions[1] = { programIdIndex: botIndex, accounts: [0, 8], data: '2', stackHeight: null };
    tx.meta.innerInstructions = [
      {
        index: 1,
        instructions: [
          { programIdIndex: 8, accounts: moonitIx.accounts, data: moonitIx.data, stackHeight: 2 },
          { ...inner[0], stackHeight: 3 },
        ],
      },
    ];
    const deeper = logs.map((l) =>
      l.replace(`${MOONIT_PROGRAM} invoke [1]`, `${MOONIT_PROGRAM} invoke [2]`).replace(`${TOKEN} invoke [2]`, `${TOKEN} invoke [3]`),
    );
    const at = deeper.indexOf(`Program ${MOONIT_PROGRAM} invoke [2]`);
    deeper.splice(at, 0, `Program ${bot} invoke [1]`);
    deeper.splice(deeper.indexOf(`Program ${MOONIT_PROGRAM} success`) + 1, 0, `Program ${bot} success`);
    tx.meta.logMessages = o.logs ? deeper : [];
  } else {
    tx.meta.innerInstructions = [{ index: 1, instructions: inner }];
    tx.meta.logMessages = o.logs ? logs : [];
  }
  // Balances: 6FqN (index 6) gives 157227000000000 to the curve's 5Zg9 (index 1).
  const post = tx.meta.postTokenBalances;
  post[0].uiTokenAmount.amount = String(253_495_663_576_418_647n + 157_227_000_000_000n);
  post[1].uiTokenAmount.amount = String(2_266_244_543_486_133n - 157_227_000_000_000n);
  // Lamports: the curve (3) -21202605; the wallet (0) +20990579 - 9000 fee - 10000 tip; dex fee (2)
  // +127216; helio fee (4) +84810; the tip account (5) +10000.
  const pre: number[] = tx.meta.preBalances;
  const delta = [20_990_579 - 19_000, 0, 127_216, -21_202_605, 84_810, 10_000];
  tx.meta.postBalances = pre.map((b, i) => b + (delta[i] ?? 0));
  return tx;
}

describe('Moonit trade events, every carrier', () => {
  it('reads the log-line TradeEvent of the real buy 5yu3… and charges it to the Moonit instruction', () => {
    const tx = load(`partial/${MOONIT_BUY}.json`);
    const norm = normalizeTransaction(tx);
    const logged = programDataByInstruction(norm);
    // Instruction 0 is the compute budget, 1 the Moonit buy (its four inner instructions follow),
    // 6 the top-level tip: only the Moonit buy wrote a `Program data:` line.
    expect([...logged.keys()]).toEqual([1]);
    // The event's collateral_amount is the 1639908 lamports the buy paid into the curve (its
    // System transfer, and the program's own log "Transfering collateral ... 1639908"); sender Ezug1.
    expect(loggedTradeEvent(MOONIT_PROGRAM, logged.get(1))).toEqual({ mint: null, sol: 1_639_908n, user: EZUG });
  });

  it('a buy of that version is found from its transfers as well: the same trade without its log', () => {
    const tx = structuredClone(load(`partial/${MOONIT_BUY}.json`));
    tx.meta.logMessages = [];
    expect(decodeSolanaTransaction(tx, EZUG)).toEqual([
      { signature: MOONIT_BUY, side: 'buy', tokenMint: MOON_MINT, amountSol: '0.001639908', amount: '5430.576418647', dex: 'moonit', blockTime: '', leg: 0 },
    ]);
  });

  it('a sell paid by debiting the curve is a sell with the logged collateral_amount (constructed from the real buy)', () => {
    // 157227000000000 raw at 9 decimals = 157227 tokens. amountSol is the venue's figure, what the
    // curve paid out (decisions.md): collateral_amount 21202605 = the curve's lamports post-pre; the
    // 212026 of fees it pays the dex and helio accounts are separate platform fees, and the seller
    // keeps 20990579 (the instruction's minimum).
    expect(decodeSolanaTransaction(moonitSell({ logs: true }), EZUG)).toEqual([
      {
        signature: CONSTRUCTED,
        side: 'sell',
        tokenMint: MOON_MINT,
        amountSol: '0.021202605',
        amount: '157227',
        dex: 'moonit',
        blockTime: '2024-09-22T10:13:20Z',
        leg: 0,
      },
    ]);
  });

  it('the same sell called by a bot one level down: the log frame is matched at its depth', () => {
    expect(decodeSolanaTransaction(moonitSell({ logs: true, via: key(200) }), EZUG)).toMatchObject([
      { side: 'sell', tokenMint: MOON_MINT, amountSol: '0.021202605', amount: '157227', dex: 'moonit' },
    ]);
  });

  it("routed by an aggregator that trades on the curve under its own authority, the sell is the calling wallet's", () => {
    // The event's sender is the aggregator's authority (key 201), not Ezug1; Ezug1 signed the
    // Jupiter instruction above the Moonit hop, so the route, and the sell, are its own.
    const tx = moonitSell({ logs: true, via: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4', sender: key(201) });
    expect(decodeSolanaTransaction(tx, EZUG)).toMatchObject([{ side: 'sell', amountSol: '0.021202605', amount: '157227', dex: 'jupiter' }]);
    // Unrouted, a sender that is not the wallet keeps the curve's trade someone else's.
    expect(decodeSolanaTransaction(moonitSell({ logs: true, via: key(200), sender: key(201) }), EZUG)).toEqual([]);
  });

  it('without its log line the sell shows no SOL at all, so no trade is made up', () => {
    expect(decodeSolanaTransaction(moonitSell({ logs: false }), EZUG)).toEqual([]);
  });

  it('an event whose collateral is a token (cost_token USDC) gives no SOL figure', () => {
    expect(decodeSolanaTransaction(moonitSell({ logs: true, costToken: USDC }), EZUG)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Jupiter before v4

const JUP3_LEGACY = '64QzPJWyEshDCMatvSDuNmvndNzn3TJyyAMSmrLMQdbGJAEwmeVM19oNwY9KiS24jvaxNCqEhv33cL4BbmxnXPTf';
const JUP3_V0 = '64Arh7PuCUQdAZPE8AJUirBotYkCAPugzcu6opL4opXsjgmYFY8tcipTRv5SwqZuFNwcEw4MVw4qKuGF6NGfY1WU';

/** Keeps the first `keep` top-level instructions of a real transaction, with their inner ones. */
function firstInstructions(tx: any, keep: number): any {
  const out = structuredClone(tx);
  out.transaction.signatures = [CONSTRUCTED];
  out.transaction.message.instructions = out.transaction.message.instructions.slice(0, keep);
  out.meta.innerInstructions = out.meta.innerInstructions.filter((g: any) => g.index < keep);
  return out;
}

/** Sets a token account's post balance to its pre balance plus `delta` (raw units). */
function settle(tx: any, accountIndex: number, delta: bigint): void {
  const pre = tx.meta.preTokenBalances.find((b: any) => b.accountIndex === accountIndex);
  const post = tx.meta.postTokenBalances.find((b: any) => b.accountIndex === accountIndex);
  post.uiTokenAmount.amount = String(BigInt(pre.uiTokenAmount.amount) + delta);
}

describe('Jupiter before v4', () => {
  it('a transaction recorded without stackHeight takes its nesting from the log (real 64QzPJWy…)', () => {
    // Its log: JUP3 invoke [1] (SetTokenLedger); JUP3 invoke [1] -> Aldrin invoke [2] -> Token
    // invoke [3] x3; JUP3 invoke [1] -> Marinade invoke [2] -> System, Token, Token invoke [3], then
    // System and Token invoke [2] (Jupiter's own move of the unstaked SOL into the WSOL account).
    const tx = normalizeTransaction(load(`${JUP3_LEGACY}.json`));
    const shape = tx.instructions.map((ix) => [tx.keys[ix.program].slice(0, 4), ix.depth, ix.parent]);
    expect(shape).toEqual([
      ['JUP3', 1, -1],
      ['JUP3', 1, -1],
      ['CURV', 2, 1],
      ['Toke', 3, 2],
      ['Toke', 3, 2],
      ['Toke', 3, 2],
      ['JUP3', 1, -1],
      ['MarB', 2, 6],
      ['1111', 3, 7],
      ['Toke', 3, 7],
      ['Toke', 3, 7],
      ['1111', 2, 6],
      ['Toke', 2, 6],
    ]);
  });

  it('one leg through a venue the table does not name takes the jupiter slug (constructed from the real 64QzPJWy…)', () => {
    // 64QzPJWy… without its last instruction (the Marinade unstake that closed the arbitrage):
    // Jupiter v3's AldrinV2Swap pays 80000000000 WSOL from AasQ's Bu1W (index 6) into the Aldrin
    // pool and gives 81146691474 raw mSOL (9 decimals) into AasQ's YoXb (index 13). Aldrin is not
    // in the venue table: before the v3 program was a router the trade came out `unknown`.
    const tx = firstInstructions(load(`${JUP3_LEGACY}.json`), 2);
    settle(tx, 13, 81_146_691_474n);
    settle(tx, 6, -80_000_000_000n);
    settle(tx, 2, 0n);
    settle(tx, 5, 0n);
    expect(decodeSolanaTransaction(tx, 'AasQTQH9oroodW5vi3uEoDuLyJDVfMz7GWehvisdGmDX')).toEqual([
      {
        signature: CONSTRUCTED,
        side: 'buy',
        tokenMint: 'mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So',
        amountSol: '80',
        amount: '81.146691474',
        dex: 'jupiter',
        blockTime: '2022-11-10T14:33:45Z',
        leg: 0,
      },
    ]);
  });

  it('a route over several top-level instructions is one trade with its SOL leg (constructed from the real 64Arh7…)', () => {
    // 64Arh7… cut after its third instruction: SetTokenLedger; CropperTokenSwap pays 7336285 WSOL
    // (+ a 7343 fee) from GmpY's CHKeq9 (index 15) for 3070523 raw xxxx into 7myc (index 14);
    // RaydiumSwapV2 pays those 3070523 xxxx for 123385 raw USDC (6 decimals) into 6BCa (index 27).
    // The SOL leg and the USDC bought sit in different top-level instructions: only as one route
    // do they make a buy, whose SOL is the Cropper pool's 7336285 (the 7343 fee beside it is not).
    const tx = firstInstructions(load(`${JUP3_V0}.json`), 3);
    settle(tx, 27, 123_385n);
    settle(tx, 15, -7_343_628n);
    for (const i of [7, 8, 29, 32, 33, 38, 39]) settle(tx, i, 0n);
    expect(decodeSolanaTransaction(tx, 'GmpYXccij2PcQCsWrBhnNDttHotNSqqeTTdvaT2wvrMd')).toEqual([
      {
        signature: CONSTRUCTED,
        side: 'buy',
        tokenMint: USDC,
        amountSol: '0.007336285',
        amount: '0.123385',
        dex: 'jupiter',
        blockTime: '2022-11-10T14:24:37Z',
        leg: 0,
      },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// Every aggregator program id

const WALLET = key(7);

/**
 * CONSTRUCTED: the wallet buys 1234.5 tokens for 1.5 SOL from a pool of a program the table does
 * not know, called by `router` (top level) -> the unknown venue -> token transfers.
 */
function routedBuy(router: string): any {
  // keys: 0 wallet, 1 wallet WSOL, 2 wallet token account, 3 pool WSOL vault, 4 pool token vault,
  // 5 pool authority, 6 mint, 7 router, 8 unknown venue, 9 token program.
  const mint = key(30);
  const keys = [WALLET, key(11), key(12), key(13), key(14), key(15), mint, router, key(18), TOKEN];
  const bal = (index: number, m: string, owner: string, amount: bigint, decimals: number) => ({
    accountIndex: index,
    mint: m,
    owner,
    programId: TOKEN,
    uiTokenAmount: { amount: String(amount), decimals, uiAmount: null, uiAmountString: '' },
  });
  return {
    blockTime: 1_750_000_000,
    slot: 1,
    meta: {
      err: null,
      fee: 5000,
      preBalances: keys.map(() => 0),
      postBalances: keys.map(() => 0),
      preTokenBalances: [bal(1, WSOL, WALLET, 1_500_000_000n, 9), bal(4, mint, keys[5], 10_000_000_000n, 6)],
      postTokenBalances: [bal(1, WSOL, WALLET, 0n, 9), bal(2, mint, WALLET, 1_234_500_000n, 6), bal(4, mint, keys[5], 8_765_500_000n, 6)],
      innerInstructions: [
        {
          index: 0,
          instructions: [
            { programIdIndex: 8, accounts: [0, 1, 2, 3, 4, 5, 9], data: '3', stackHeight: 2 },
            { programIdIndex: 9, accounts: [1, 3, 0], data: tokenTransfer(1_500_000_000n), stackHeight: 3 },
            { programIdIndex: 9, accounts: [4, 2, 5], data: tokenTransfer(1_234_500_000n), stackHeight: 3 },
          ],
        },
      ],
      logMessages: [],
      loadedAddresses: { writable: [], readonly: [] },
    },
    transaction: {
      signatures: [CONSTRUCTED],
      message: {
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 3 },
        accountKeys: keys,
        recentBlockhash: key(9),
        instructions: [{ programIdIndex: 7, accounts: [0, 1, 2, 3, 4, 5, 6, 8, 9], data: '2', stackHeight: null }],
      },
    },
  };
}

describe('every aggregator program id of programs.ts gives its slug', () => {
  it('lists Jupiter v1-v6, OKX DEX router (both), DFlow v1-v4', () => {
    const bySlug = (slug: string) => [...ROUTER_SLUGS].filter(([, s]) => s === slug).length;
    expect([bySlug('jupiter'), bySlug('okx'), bySlug('dflow')]).toEqual([7, 2, 4]);
  });

  for (const [id, slug] of ROUTER_SLUGS) {
    it(`${id} -> ${slug} (constructed)`, () => {
      expect(decodeSolanaTransaction(routedBuy(id), WALLET)).toMatchObject([{ side: 'buy', amountSol: '1.5', amount: '1234.5', dex: slug }]);
    });
  }

  it('a program that is no aggregator leaves the venue slug: the unknown pool gives `unknown` (constructed)', () => {
    expect(decodeSolanaTransaction(routedBuy(key(99)), WALLET)).toMatchObject([{ side: 'buy', dex: 'unknown' }]);
  });

  it("Jupiter Z: a market maker filling the wallet's order is a jupiter trade (constructed from order-engine fill.rs)", () => {
    // fill: the taker's SOL to the maker (System transfer, taker signs), the maker's tokens to the
    // taker (authority maker). keys: 0 taker (wallet), 1 maker, 2 taker token account, 3 maker token
    // account, 4 mint, 5 Jupiter Z, 6 token program, 7 system program.
    const mint = key(40);
    const tx = routedBuy(key(1));
    tx.transaction.message.accountKeys = [WALLET, key(41), key(42), key(43), mint, '61DFfeTKM7trxYcPQCM78bJ794ddZprZpAwAnLiwTpYH', TOKEN, SYSTEM];
    tx.transaction.message.instructions = [{ programIdIndex: 5, accounts: [0, 1, 2, 3, 4, 6, 7], data: '4', stackHeight: null }];
    tx.meta.innerInstructions = [
      {
        index: 0,
        instructions: [
          { programIdIndex: 7, accounts: [0, 1], data: systemTransfer(2_000_000_000n), stackHeight: 2 },
          { programIdIndex: 6, accounts: [3, 2, 1], data: tokenTransfer(500_000_000n), stackHeight: 2 },
        ],
      },
    ];
    const bal = (index: number, owner: string, amount: bigint) => ({
      accountIndex: index,
      mint,
      owner,
      programId: TOKEN,
      uiTokenAmount: { amount: String(amount), decimals: 6, uiAmount: null, uiAmountString: '' },
    });
    tx.meta.preTokenBalances = [bal(3, key(41), 900_000_000n)];
    tx.meta.postTokenBalances = [bal(2, WALLET, 500_000_000n), bal(3, key(41), 400_000_000n)];
    tx.meta.preBalances = tx.transaction.message.accountKeys.map(() => 0);
    tx.meta.postBalances = tx.transaction.message.accountKeys.map(() => 0);
    expect(decodeSolanaTransaction(tx, WALLET)).toEqual([
      { signature: CONSTRUCTED, side: 'buy', tokenMint: mint, amountSol: '2', amount: '500', dex: 'jupiter', blockTime: '2025-06-15T15:06:40Z', leg: 0 },
    ]);
  });
});

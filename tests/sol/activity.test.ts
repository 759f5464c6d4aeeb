import { describe, expect, it } from 'vitest';
import { base58Encode } from '../../src/lib/chains/shared/base58.js';
import { solanaActivity } from '../../src/lib/chains/sol/decode/activity.js';
import { decodeSolanaTransaction, solanaSigners } from '../../src/lib/chains/sol/decode/decode-transaction.js';
import { isUnexplained, type TransactionActivity } from '../../src/lib/core/activity.js';
import { asJsonParsedShape, loadFixtureTx, readManifest } from '../support/sol-replay/fixtures.js';

// Every figure below is derived by hand from the fixture's meta: the wallet's lamports
// (postBalances[i] - preBalances[i] of the account index named), meta.fee added back when the
// wallet is account 0 (the fee payer), its own token accounts' lamports, and the uiTokenAmount
// `amount` of the pre/post token balances whose owner is the wallet.

const loadTx = (signature: string): any => loadFixtureTx(signature);

const SOL = (raw: bigint) => ({ tokenMint: null, raw, decimals: 9 });
const tok = (tokenMint: string, raw: bigint, decimals: number) => ({ tokenMint, raw, decimals });
const tradeMints = (tx: unknown, wallet: string) => decodeSolanaTransaction(tx, wallet).map((t) => t.tokenMint);

const ATA = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const SYSTEM = '11111111111111111111111111111111';
const WSOL = 'So11111111111111111111111111111111111111112';

function activity(tx: unknown, wallet: string): TransactionActivity {
  const a = solanaActivity(tx, wallet);
  expect(a).not.toBeNull();
  return a as TransactionActivity;
}

describe('Solana activity of real mainnet transactions', () => {
  it('SOL -> token (Meteora DAMM v2, through a temporary WSOL account): exact changes, explained by its trade', () => {
    const tx = loadTx('3QHC6GMfi2GsZaJ9pFCgRt6E3eevgvgDuULiJEPUzin86S4TUPqZoozNtptkM2iyKqiYWxd1fwFAFkTiU4QCoqfj');
    const wallet = '8QXHLs61dPPz9V4SLKPw7WN1vsuRpgGqxVo3Wtc55jWy';
    const a = activity(tx, wallet);
    // SOL: account 0 (the wallet) 1,001,195,803 -> 997,337,056 = -3,858,747, + fee 5,000 =
    // -3,853,747. The temporary WSOL account 1 (HrRx…) is opened and closed (0 -> 0 lamports,
    // in neither balance list) and adds nothing; the pool's WSOL vault 5 gains the same 3,853,747.
    // 4KCq…: account 3, owner the wallet, 5,574,540,307,348 -> 5,584,589,750,228 = +10,049,442,880 (6 decimals).
    expect(a.changes).toEqual([SOL(-3_853_747n), tok('4KCqTCbhV4qkCTGcc7adxSym5j7irot7ZW7EEVUJ2s7C', 10_049_442_880n, 6)]);
    // The temporary account's rent went back to the wallet (post 0), no tip: nothing incidental.
    expect(a.incidentalNative).toBe(0n);
    // ATA program (top 0), Token and System (inside it), the DAMM v2 pool (top 3); no ComputeBudget here.
    expect(a.programs).toEqual([ATA, TOKEN, SYSTEM, 'cpamdpZCGKUy5JxQXB4dcpGPiikHawvSWAd6mEn1sGG']);
    expect(a.knownNonTrade).toBe(false);
    expect(tradeMints(tx, wallet)).toEqual(['4KCqTCbhV4qkCTGcc7adxSym5j7irot7ZW7EEVUJ2s7C']);
    expect(isUnexplained(a, tradeMints(tx, wallet))).toBe(false);
    // The venue taken out of the tables: no trade names the token any more.
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('token -> SOL (PumpSwap sell): exact changes, explained by its trade', () => {
    const tx = loadTx('5bvyp1nob51M6FCjCeZd68AjXFWJJEvdqkHu9ZCeRt6sMz5wpUiTi3LPBEuonUHuVg8LwzSnx5MX2RFGSv6Mb36v');
    const wallet = '95rVs91daKmzom4SM41dg4MRmy5M7rMEHPerenZwWaCq';
    const a = activity(tx, wallet);
    // SOL: account 0 173,120,920 -> 374,808,413 = +201,687,493, + fee 5,000 = +201,692,493 (the
    // pool's WSOL account 3 loses 201,692,493). EWV6…: account 2, owner the wallet,
    // 944,780,237,596,635 -> 475,845,960,900,177 = -468,934,276,696,458 (9 decimals).
    expect(a.changes).toEqual([SOL(201_692_493n), tok('EWV6bjhKF5zkXANCdWPvDs7dofRVk4pKyVTitqgEWj8E', -468_934_276_696_458n, 9)]);
    expect(a.incidentalNative).toBe(0n);
    expect(a.programs).toEqual([ATA, TOKEN, SYSTEM, 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA', 'pfeeUxB6jkeY1Hxd7CsFCAjcbHA9rWtchMGdZ6VojVZ', TOKEN_2022]);
    expect(isUnexplained(a, tradeMints(tx, wallet))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('token -> token (OKX route, CPMM then CLMM): no SOL change once the fee and the new ATA are accounted for', () => {
    const tx = loadTx('2bhr1FWqeL28zH1BJR1h3PxkVorh5GD3koPUgzKMKFtxUKK5k3R3UraU8YRoB5yxKDi5AZafp3Xf74AXTf9LDqWc');
    const wallet = 'E8oVrS4Pk74ouemj4t6grJ6w5Ah7SFLYa8VoRtvtWpnw';
    const a = activity(tx, wallet);
    // SOL: account 0 14,250,659 -> 8,094,379 = -6,156,280; + the wallet's new ED5n… ATA (account 1,
    // 0 -> 2,039,280) + fee 4,117,000 = 0: no SOL entry. The WSOL middle leg ran through the pools'
    // accounts, not the wallet's.
    // 7atg…: account 2 (listed first, in the pre balances) 22,336,810 -> 21,978,010 = -358,800 (2 decimals).
    // ED5n…: account 1, absent before, 74,619 after (6 decimals).
    expect(a.changes).toEqual([
      tok('7atgF8KQo4wJrD5ATGX7t1V2zVvykPJbFfNeVf1icFv1', -358_800n, 2),
      tok('ED5nyyWEzpPPiWimP8vYm7sD7TD3LAt3Q3gRTWHzPJBY', 74_619n, 6),
    ]);
    expect(a.incidentalNative).toBe(0n);
    // Two ComputeBudget instructions lead the transaction and are left out.
    expect(a.programs).toEqual([
      ATA,
      TOKEN,
      SYSTEM,
      '6m2CDdhRgxpH4WjvdzxAYbGxwdGUz5MziiL5jek2kBma',
      'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C',
      TOKEN_2022,
      'CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK',
    ]);
    expect(tradeMints(tx, wallet).sort()).toEqual(['7atgF8KQo4wJrD5ATGX7t1V2zVvykPJbFfNeVf1icFv1', 'ED5nyyWEzpPPiWimP8vYm7sD7TD3LAt3Q3gRTWHzPJBY']);
    expect(isUnexplained(a, tradeMints(tx, wallet))).toBe(false);
    // One side named is not enough: the other token is named by no trade.
    expect(isUnexplained(a, ['7atgF8KQo4wJrD5ATGX7t1V2zVvykPJbFfNeVf1icFv1'])).toBe(true);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('a Pump.fun launch with a dev buy: rent for the accounts it created and a Jito tip are incidental, exactly', () => {
    const tx = loadTx('2s393PSYYxJJJfGiwHf18HZeC68nZs44ssbeB4aAkeYMyd1dyiiu3yVmGyRWZuArk5HzYDgVxYfhKLYd2CJ8kCBj');
    const wallet = '6xo262KbDXepWbF3vPTrFXysr5vJwk3mozBXmXk3hmMx';
    const mint = '5dNYcCZXEGfGgbdUdq7MMR7KLsNJLLLgL83wLH8Fpump';
    const a = activity(tx, wallet);
    // SOL: account 0 2,750,051,377 -> 1,713,137,549 = -1,036,913,828, + fee 525,028, + the wallet's
    // new token account 6 (0 -> 2,039,280) = -1,034,349,520. 5dNY…: account 6, 0 -> 34,612,903,225,806 (6 decimals).
    expect(a.changes).toEqual([SOL(-1_034_349_520n), tok(mint, 34_612_903_225_806n, 6)]);
    // Incidental, 14,349,520 lamports:
    //   tip: top-level System transfer 0 -> 2 (ADuU…, a Jito tip account) of 4,000,000;
    //   createAccount 0 -> 1 (the mint, 82 bytes): 1,461,600 = (128 + 82) x 6,960;
    //   createAccount 0 -> 3 (the bonding curve, 49 bytes): 1,231,920; the curve ends at
    //     1,001,231,920 because the buy paid 1 SOL into it, which is not rent and stays out;
    //   createAccount 0 -> 4 (the curve's token account, 165 bytes): 2,039,280;
    //   Transfer 0 -> 5 of 15,616,720, then Allocate 5 (679 bytes) and Assign (Metaplex's
    //     metadata): rent (128 + 679) x 6,960 = 5,616,720; the other 10,000,000 is Metaplex's fee.
    // 4,000,000 + 1,461,600 + 1,231,920 + 2,039,280 + 5,616,720 = 14,349,520. The 10,000,000
    // transfer to Pump.fun's fee account (7) is a fee of the venue, not incidental.
    expect(a.incidentalNative).toBe(14_349_520n);
    expect(isUnexplained(a, tradeMints(tx, wallet))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('a Pump.fun buy with a Jito tip: the tip is incidental, the venue and bot fees are not', () => {
    const tx = loadTx('4U8kypMuCUCkR6teu2Vn8ujaEJUR3dcUU5QExZxSMMeJ5fRTvYfWs5M5AB9yNjjHKAQ4w433QVyUivc3Pp8gvG1R');
    const wallet = 'EfbbhahGNuhqEraRZXrwETfsaKxScngEttdQixWAW4WE';
    const a = activity(tx, wallet);
    // SOL: account 0 582,831,303,260 -> 579,755,258,979 = -3,076,044,281, + fee 4,005,001, + the
    // wallet's new ATA (account 2, 0 -> 2,039,280) = -3,070,000,000: 3 SOL to the curve, 0.03 to
    // Pump.fun's fee account, 0.03 to 7wrz… and the 0.01 tip (top 5: 0 -> 3, ADuU…).
    // D66s…: account 2, 0 -> 56,716,561,396,327 (6 decimals).
    expect(a.changes).toEqual([SOL(-3_070_000_000n), tok('D66sbPtYqLnwPYcUqjDktrQtb52CnfF77C3sdpNpR8Si', 56_716_561_396_327n, 6)]);
    expect(a.incidentalNative).toBe(10_000_000n);
    expect(isUnexplained(a, tradeMints(tx, wallet))).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it("a token transfer that opens five recipients' token accounts: their rent is incidental; never unexplained", () => {
    const tx = loadTx('5S43CUBVghvpVbzjiih5dNMMyLXEXbmAB3LXW1wdXGXZZ1k6EgP5WqxCmrP2NsLfVBVfvFeRbUbTpeQ8EoXhDdNT');
    const wallet = 'EohzXCJJxTUbHDQvawQvFAUUnCDu6TkaMhpLL6Armm5t';
    const a = activity(tx, wallet);
    // SOL: account 0 773,576,200 -> 763,344,800 = -10,231,400, + fee 35,000 = -10,196,400.
    // HbDH…: account 3, owner the wallet, 67,062,499,999,999 -> 67,047,499,999,999 = -15,000,000,000 (6 decimals).
    expect(a.changes).toEqual([SOL(-10_196_400n), tok('HbDHSRNnamGivWjtbYYaPJjs1o3kmwq3bXVhWsLypump', -15_000_000_000n, 6)]);
    // Accounts 1, 2, 4, 5, 6 (others' ATAs) each 0 -> 2,039,280, created by the ATA program with
    // the wallet as funder: 5 x 2,039,280 = 10,196,400, the wallet's whole SOL change.
    expect(a.incidentalNative).toBe(10_196_400n);
    expect(a.knownNonTrade).toBe(false);
    expect(decodeSolanaTransaction(tx, wallet)).toEqual([]);
    // Gave a token, received nothing: not swap-shaped.
    expect(isUnexplained(a, [])).toBe(false);
  });

  it('a plain SOL transfer: one native change, never unexplained', () => {
    const tx = loadTx('2E9Ddokz6HZkn457gAhd7uaUYnWtgUuRQaGGKFb2xDtYY3Mxn81DaXPMKfLLmcWMUAEQwZG1WF6mfcXMKr2yBqZU');
    const wallet = 'F5YtngCQs6QCUdy2vqT6hMtFyNkLpkJSTQF2WZKV1y8e';
    const a = activity(tx, wallet);
    // Account 0 85,418,511,792 -> 85,376,506,062 = -42,005,730, + fee 5,730 = -42,000,000 (account 1 gains 42,000,000).
    expect(a).toEqual({
      changes: [SOL(-42_000_000n)],
      incidentalNative: 0n,
      programs: [SYSTEM, 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'],
      knownNonTrade: false,
    });
    expect(isUnexplained(a, [])).toBe(false);
  });

  it('PumpSwap deposit: LP tokens minted to the wallet while it gives SOL and the token are a known non-trade', () => {
    const tx = loadTx('63PQNtzDQdBDnf7FMC4jafDPhDVZHHhZwhJAbCT25efDgXt4H3fxPSQCAacV5Psaz5aKrRk35ubc97oQuozg9rwV');
    const wallet = 'xQnMtxxFqh1WDcaYmi9vLqdWUoJpUni2xGFsa5Gqbtz';
    const a = activity(tx, wallet);
    // SOL: account 0 29,688,774 -> 22,118,078 = -7,570,696, + fee 14,812, + the wallet's new LP
    // account 2 (0 -> 2,074,080) = -5,481,804 (the pool's WSOL account 7 gains 5,481,804).
    // cbbt…: account 5, 882 -> 0 (8 decimals). BjSG… (LP): account 2, 0 -> 69,508 (9 decimals),
    // minted by Token-2022 MintTo [3 mint, 2 account, 4 authority] inside the deposit.
    expect(a.changes).toEqual([
      SOL(-5_481_804n),
      tok('cbbtcf3aa214zXHbiAZQwf4122FBYbraNdFqgw4iMij', -882n, 8),
      tok('BjSGDi4LrMUHkFeGPJdW5vJRtvL6oXbpiFdAaj5qMVjJ', 69_508n, 9),
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
    // Swap-shaped without the flag: the flag is what keeps it out.
    expect(isUnexplained({ ...a, knownNonTrade: false }, [])).toBe(true);
  });

  it("PumpSwap withdrawal: the wallet's LP tokens burnt while it receives SOL and the token are a known non-trade", () => {
    const tx = loadTx('2Z6pDoWEVYwf4v4fzNVNLW1c2DzEK24WhpyK45ZBkZBiUBogVCfG67U5b1ff6W3ixKPotLTB2k5FTKCKgNtKYJgv');
    const wallet = 'CBmMUBCWvUXZc7WuoTVpb8cqhvC9DxWMato6JijqJ1Ci';
    const a = activity(tx, wallet);
    // SOL: account 0 36,091,660 -> 1,236,078,975 = +1,199,987,315, + fee 12,684 = +1,199,999,999
    // (the pool's WSOL account 7 loses 1,199,999,999). JCHp…: account 4,
    // 2,000,000,000,000,000,000 -> 9,999,999,999,991,835,034 = +7,999,999,999,991,835,034.
    // 3eKp… (LP): account 5, 97,979,589,711,227 -> 0, burnt by Burn [5 account, 3 mint, 0 owner].
    expect(a.changes).toEqual([
      SOL(1_199_999_999n),
      tok('JCHpc7XsjdidfzLqo4eWpSwLAjbmvrBobc5DwmFtAYx', 7_999_999_999_991_835_034n, 9),
      tok('3eKpCkavVYQHYvhrCUzsTRB3jU6H2FuBaQ7K72SSKjLA', -97_979_589_711_227n, 9),
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
    expect(isUnexplained({ ...a, knownNonTrade: false }, [])).toBe(true);
  });

  it('Raydium AMM v4 withdrawal in the jsonParsed encoding: the parsed burn is seen the same way', () => {
    const tx = loadTx('66cbwhMBm9NiubNzLGxKveFj2TuMg91x8xUtKHm7RQPiGsbeXfUBUi25Erq5QM17A8BnPvkA2Dz4hQuNnt5HWeC8');
    const wallet = '5z4giZ7YjS7LMGYfPjCUA8qUUxNSFm3Ru3xGtKCziqb6';
    const a = activity(tx, wallet);
    // SOL: account 0 1,120,140,994 -> 1,122,583,495 = +2,442,501, + fee 15,001 = +2,457,502 (the
    // pool's WSOL account 21 loses 2,457,502; the temporary WSOL account 4sxE… is opened and closed).
    // 7aRh… (LP): account 6, 631,455,532,033 -> 593,568,200,111 = -37,887,331,922, the parsed `burn`.
    // 9Zw3…: account 7, 0 -> 590,358,717,042,758.
    expect(a.changes).toEqual([
      SOL(2_457_502n),
      tok('7aRh7s688sJ1nJq1HKYwnKrnXNBi43PAsmFYfGg1b1CJ', -37_887_331_922n, 9),
      tok('9Zw3CR7NPD6hXNk5PZYpYKsvWv9puwr1eEaPxXRapump', 590_358_717_042_758n, 9),
    ]);
    expect(a.knownNonTrade).toBe(true);
    expect(isUnexplained(a, [])).toBe(false);
  });

  it('null for a failed transaction', () => {
    // A real swap (3QHC…) marked failed, as the RPC reports an instruction error.
    const tx = structuredClone(loadTx('3QHC6GMfi2GsZaJ9pFCgRt6E3eevgvgDuULiJEPUzin86S4TUPqZoozNtptkM2iyKqiYWxd1fwFAFkTiU4QCoqfj'));
    const wallet = '8QXHLs61dPPz9V4SLKPw7WN1vsuRpgGqxVo3Wtc55jWy';
    expect(solanaActivity(tx, wallet)).not.toBeNull();
    tx.meta.err = { InstructionError: [3, { Custom: 6001 }] };
    expect(solanaActivity(tx, wallet)).toBeNull();
  });

  it('null for a wallet that did not sign, even when the transaction moved its tokens', () => {
    // 5SnG…: a keeper signs a limit-order fill whose Jupiter swap moves FMFot66s…'s tokens.
    const tx = loadTx('5SnGKXqNQ6zYGfNHQwHWwRtbxnYHUHLbANXgpvCLuXD1LA5paStRBcuXwu2T5eM9xsVWFQTzeUNwPWx6UAQhUb2t');
    expect(solanaActivity(tx, 'FMFot66s1WTXW2uhfXRmvLtCYB4hEy3SVatQWCQNkH1H')).toBeNull();
    // 43W2…: a pool authority account, present but not a signer; and a wallet absent from the transaction.
    const bundle = loadTx('43W2EWitbiL5cANu6b82otcRyBAJ7gWZfqvoJKuev3MY4JKSp8oKQmePx92ApWC6aT3oYuUZjt27QyQpQD2o8yK2');
    expect(solanaActivity(bundle, '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1')).toBeNull();
    expect(solanaActivity(bundle, '8QXHLs61dPPz9V4SLKPw7WN1vsuRpgGqxVo3Wtc55jWy')).toBeNull();
  });

  it('gives the same activity for a json fixture rebuilt in the jsonParsed shape', () => {
    let compared = 0;
    for (const { signature, encoding } of readManifest().values()) {
      if (encoding !== 'json') continue;
      const tx = loadTx(signature);
      const parsed = asJsonParsedShape(tx);
      for (const wallet of solanaSigners(tx)) expect(solanaActivity(parsed, wallet), `${signature} ${wallet}`).toEqual(solanaActivity(tx, wallet));
      compared++;
    }
    expect(compared).toBe(41);
  });
});

// ---------------------------------------------------------------------------------------------
// Constructed transactions (json encoding) for shapes no fixture shows. Each is one top-level
// instruction of an unknown program `PROGRAM` whose inner instructions do the moving; lamports
// are given per account as [pre, post]; the fee (5,000) is paid by account 0, the wallet.

const key = (n: number) => base58Encode(new Uint8Array(32).fill(n));
const WALLET = key(7);
const PROGRAM = key(99);
const JITO_TIP = 'Cw8CFyM9FkoMi7K7Crf6HNQqf4uEMzpKw6QNghXLvLkY';

function u64le(v: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 8; i++) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
  return out;
}
const data = (bytes: number[]) => base58Encode(Uint8Array.from(bytes));
const systemTransfer = (lamports: bigint) => data([2, 0, 0, 0, ...u64le(lamports)]);
const createAccount = (lamports: bigint, space: bigint) => data([0, 0, 0, 0, ...u64le(lamports), ...u64le(space), ...new Array(32).fill(9)]);
const tokenTransfer = (amount: bigint) => data([3, ...u64le(amount)]);
const mintTo = (amount: bigint) => data([7, ...u64le(amount)]);
const burn = (amount: bigint) => data([8, ...u64le(amount)]);

interface Bal {
  index: number;
  mint: string;
  amount: bigint;
  decimals: number;
  owner?: string;
}

function build(b: {
  keys: string[];
  lamports: [number, number][];
  pre: Bal[];
  post: Bal[];
  inner: { program: number; accounts: number[]; data: string }[];
}): unknown {
  const bal = (x: Bal) => ({
    accountIndex: x.index,
    mint: x.mint,
    owner: x.owner ?? WALLET,
    programId: TOKEN,
    uiTokenAmount: { amount: String(x.amount), decimals: x.decimals, uiAmount: null, uiAmountString: '' },
  });
  const programIdIndex = b.keys.indexOf(PROGRAM);
  return {
    blockTime: 1_750_000_000,
    slot: 1,
    meta: {
      err: null,
      fee: 5000,
      preBalances: b.lamports.map((l) => l[0]),
      postBalances: b.lamports.map((l) => l[1]),
      preTokenBalances: b.pre.map(bal),
      postTokenBalances: b.post.map(bal),
      innerInstructions: [{ index: 0, instructions: b.inner.map((i) => ({ programIdIndex: i.program, accounts: i.accounts, data: i.data, stackHeight: 2 })) }],
      logMessages: [],
      loadedAddresses: { writable: [], readonly: [] },
    },
    transaction: {
      signatures: ['constructed'],
      message: {
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 3 },
        accountKeys: b.keys,
        recentBlockhash: key(8),
        instructions: [{ programIdIndex, accounts: b.keys.map((_, i) => i).filter((i) => i !== programIdIndex), data: '1', stackHeight: null }],
      },
    },
  };
}

describe('Solana activity of constructed transactions', () => {
  it('lamports paid into a new account beyond its rent stay a payment (an escrow funded by createAccount)', () => {
    // keys: 0 wallet, 1 new escrow account, 2 wallet's token account of Y, 3 seller's token account of Y,
    // 4 program, 5 System, 6 Token. The wallet funds the escrow with 5 SOL + rent for 100 bytes
    // ((128 + 100) x 6,960 = 1,586,880) and receives 1,000,000 Y.
    const Y = key(40);
    const keys = [WALLET, key(41), key(42), key(43), PROGRAM, SYSTEM, TOKEN];
    const tx = build({
      keys,
      lamports: [
        [10_000_000_000, 10_000_000_000 - 5_001_586_880 - 5000],
        [0, 5_001_586_880],
        [2_039_280, 2_039_280],
        [2_039_280, 2_039_280],
        [1, 1],
        [1, 1],
        [1, 1],
      ],
      pre: [
        { index: 2, mint: Y, amount: 0n, decimals: 6 },
        { index: 3, mint: Y, amount: 1_000_000n, decimals: 6, owner: key(44) },
      ],
      post: [
        { index: 2, mint: Y, amount: 1_000_000n, decimals: 6 },
        { index: 3, mint: Y, amount: 0n, decimals: 6, owner: key(44) },
      ],
      inner: [
        { program: 5, accounts: [0, 1], data: createAccount(5_001_586_880n, 100n) },
        { program: 6, accounts: [3, 2, 4], data: tokenTransfer(1_000_000n) },
      ],
    });
    const a = activity(tx, WALLET);
    expect(a.changes).toEqual([SOL(-5_001_586_880n), tok(Y, 1_000_000n, 6)]);
    expect(a.incidentalNative).toBe(1_586_880n);
    expect(a.programs).toEqual([PROGRAM, SYSTEM, TOKEN]);
    expect(isUnexplained(a, [])).toBe(true);
    expect(isUnexplained(a, [Y])).toBe(false);
  });

  it('rent of an account created with a seed (CreateAccountWithSeed) for another owner is incidental', () => {
    // keys: 0 wallet, 1 new account, 2 program, 3 System. CreateAccountWithSeed data: tag 3, base
    // (32 bytes), seed "abc" as u64 length 3 + bytes, lamports 2,039,280, space 165, owner (32 bytes).
    const keys = [WALLET, key(1), PROGRAM, SYSTEM];
    const seeded = data([3, 0, 0, 0, ...new Array(32).fill(7), ...u64le(3n), 97, 98, 99, ...u64le(2_039_280n), ...u64le(165n), ...new Array(32).fill(9)]);
    const tx = build({
      keys,
      lamports: [
        [100_000_000, 100_000_000 - 2_039_280 - 5000],
        [0, 2_039_280],
        [1, 1],
        [1, 1],
      ],
      pre: [],
      post: [],
      inner: [{ program: 3, accounts: [0, 1, 0], data: seeded }],
    });
    const a = activity(tx, WALLET);
    // -2,039,280 - 5,000 + fee 5,000; the rent of 165 bytes is (128 + 165) x 6,960 = 2,039,280.
    expect(a.changes).toEqual([SOL(-2_039_280n)]);
    expect(a.incidentalNative).toBe(2_039_280n);
  });

  it('a receipt token minted to the wallet for SOL is a known non-trade; beside another token received it is not', () => {
    // keys: 0 wallet, 1 reserve, 2 wallet's receipt account (R), 3 R's mint, 4 program, 5 System,
    // 6 Token, 7 wallet's account of Y, 8 someone's account of Y. The wallet pays 2 SOL into the
    // reserve and 1,900,000,000 R are minted to it.
    const R = key(3);
    const Y = key(50);
    const keys = [WALLET, key(1), key(2), R, PROGRAM, SYSTEM, TOKEN, key(51), key(52)];
    const base = {
      keys,
      lamports: [
        [5_000_000_000, 3_000_000_000 - 5000],
        [1_000_000_000, 3_000_000_000],
        [2_039_280, 2_039_280],
        [1_461_600, 1_461_600],
        [1, 1],
        [1, 1],
        [1, 1],
        [2_039_280, 2_039_280],
        [2_039_280, 2_039_280],
      ] as [number, number][],
      pre: [{ index: 2, mint: R, amount: 0n, decimals: 9 }],
      post: [{ index: 2, mint: R, amount: 1_900_000_000n, decimals: 9 }],
      inner: [
        { program: 5, accounts: [0, 1], data: systemTransfer(2_000_000_000n) },
        { program: 6, accounts: [3, 2, 4], data: mintTo(1_900_000_000n) },
      ],
    };
    const deposit = activity(build(base), WALLET);
    expect(deposit.changes).toEqual([SOL(-2_000_000_000n), tok(R, 1_900_000_000n, 9)]);
    expect(deposit.knownNonTrade).toBe(true);
    expect(isUnexplained(deposit, [])).toBe(false);

    // The same deposit, and 500 Y paid to the wallet by the program: everything received is no
    // longer what was minted, so a payment for Y may hide in it and the transaction stays judged.
    const mixed = build({
      ...base,
      pre: [...base.pre, { index: 7, mint: Y, amount: 0n, decimals: 0 }, { index: 8, mint: Y, amount: 500n, decimals: 0, owner: key(53) }],
      post: [...base.post, { index: 7, mint: Y, amount: 500n, decimals: 0 }, { index: 8, mint: Y, amount: 0n, decimals: 0, owner: key(53) }],
      inner: [...base.inner, { program: 6, accounts: [8, 7, 4], data: tokenTransfer(500n) }],
    });
    const a = activity(mixed, WALLET);
    expect(a.changes).toEqual([SOL(-2_000_000_000n), tok(R, 1_900_000_000n, 9), tok(Y, 500n, 0)]);
    expect(a.knownNonTrade).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it('a burn beside another token given is not a known non-trade', () => {
    // keys: 0 wallet, 1 wallet's account of R (burnt), 2 R's mint, 3 wallet's account of Z,
    // 4 someone's account of Z, 5 program, 6 Token, 7 reserve. 100 R burnt and 40 Z given; the
    // wallet receives 1 SOL from the reserve (a program-owned account, lamports moved directly).
    const R = key(2);
    const Z = key(60);
    const keys = [WALLET, key(1), R, key(61), key(62), PROGRAM, TOKEN, key(63)];
    const tx = build({
      keys,
      lamports: [
        [1_000_000_000, 2_000_000_000 - 5000],
        [2_039_280, 2_039_280],
        [1_461_600, 1_461_600],
        [2_039_280, 2_039_280],
        [2_039_280, 2_039_280],
        [1, 1],
        [1, 1],
        [5_000_000_000, 4_000_000_000],
      ],
      pre: [
        { index: 1, mint: R, amount: 100n, decimals: 0 },
        { index: 3, mint: Z, amount: 40n, decimals: 0 },
      ],
      post: [
        { index: 1, mint: R, amount: 0n, decimals: 0 },
        { index: 3, mint: Z, amount: 0n, decimals: 0 },
        { index: 4, mint: Z, amount: 40n, decimals: 0, owner: key(64) },
      ],
      inner: [
        { program: 6, accounts: [1, 2, 0], data: burn(100n) },
        { program: 6, accounts: [3, 4, 0], data: tokenTransfer(40n) },
      ],
    });
    const a = activity(tx, WALLET);
    expect(a.changes).toEqual([SOL(1_000_000_000n), tok(R, -100n, 0), tok(Z, -40n, 0)]);
    expect(a.knownNonTrade).toBe(false);
    expect(isUnexplained(a, [])).toBe(true);
  });

  it("wrapping SOL into the wallet's own WSOL account changes nothing", () => {
    // keys: 0 wallet, 1 wallet's WSOL account, 2 program, 3 System. 1 SOL moved in: the wallet's
    // lamports -1,000,000,000 - fee, its WSOL account's +1,000,000,000, WSOL 0 -> 1,000,000,000.
    const keys = [WALLET, key(1), PROGRAM, SYSTEM];
    const tx = build({
      keys,
      lamports: [
        [3_000_000_000, 2_000_000_000 - 5000],
        [2_039_280, 1_002_039_280],
        [1, 1],
        [1, 1],
      ],
      pre: [{ index: 1, mint: WSOL, amount: 0n, decimals: 9 }],
      post: [{ index: 1, mint: WSOL, amount: 1_000_000_000n, decimals: 9 }],
      inner: [{ program: 3, accounts: [0, 1], data: systemTransfer(1_000_000_000n) }],
    });
    expect(activity(tx, WALLET)).toEqual({ changes: [], incidentalNative: 0n, programs: [PROGRAM, SYSTEM], knownNonTrade: false });
  });

  it('a tip to a Jito tip account from inside a program counts; a transfer to any other account does not', () => {
    // keys: 0 wallet, 1 a Jito tip account, 2 a bot's fee account, 3 program, 4 System.
    const keys = [WALLET, JITO_TIP, key(2), PROGRAM, SYSTEM];
    const tx = build({
      keys,
      lamports: [
        [1_000_000_000, 1_000_000_000 - 3_000_000 - 5000],
        [5_000_000, 6_000_000],
        [5_000_000, 7_000_000],
        [1, 1],
        [1, 1],
      ],
      pre: [],
      post: [],
      inner: [
        { program: 4, accounts: [0, 1], data: systemTransfer(1_000_000n) },
        { program: 4, accounts: [0, 2], data: systemTransfer(2_000_000n) },
      ],
    });
    const a = activity(tx, WALLET);
    expect(a.changes).toEqual([SOL(-3_000_000n)]);
    expect(a.incidentalNative).toBe(1_000_000n);
  });
});

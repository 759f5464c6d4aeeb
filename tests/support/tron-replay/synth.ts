/**
 * A large Tron wallet built from real transaction shapes. Each captured swap (and each kind of
 * noise) is re-keyed to one wallet: its sender's 20 bytes are replaced everywhere they appear
 * (raw_data, raw_data_hex, calldata, log topics and data, internal transactions, in every hex
 * form, which all hold the same 40 hex digits), the signed raw data gets a memo (field 10 of
 * Transaction.raw) so the id, sha256 of the raw data, is new, and the transaction is placed at a
 * new block. SunSwap V2 swaps are built on the real router, WTRX and WTRX/USDT pair. The expected
 * trades are the hand-checked goldens of the templates (tests/tron/golden.ts), re-keyed the same
 * way: nothing here asks the decoder.
 */
import { createHash } from 'node:crypto';
import { keccak256, toHex } from 'viem';
import { hexToTron, tronToHex } from '../../../src/lib/chains/tron/address.js';
import type { GoldenTrade, GoldenTx } from '../../tron/golden.js';
import { createPrng } from '../sol-replay/synth.js';
import type { TronReplayTx } from './fixtures.js';

export const SUNSWAP_V2_ROUTER = 'TKzxdSv2FZKQrEqkKVgp5DcwEXBEKMg2Ax';
export const WTRX_USDT_PAIR = 'TFGDbUyP8xez44C76fin3bn3Ss6jugoUwJ';
const WTRX = 'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export interface ExpectedTronTrade extends GoldenTrade {
  signature: string;
  blockTime: string;
  /** Block, for ordering. */
  block: number;
  leg: number;
}

export interface TronSynthWallet {
  wallet: string;
  transactions: TronReplayTx[];
  /** Newest first, in the order decisions.md sets (block, then transaction id, then leg). */
  expected: ExpectedTronTrade[];
  /** Records the wallet sent that are not trades. */
  noise: number;
}

const h20 = (t: string) => tronToHex(t)!.slice(2);
const word = (hex20: string) => hex20.padStart(64, '0');
const uint = (v: bigint) => v.toString(16).padStart(64, '0');
const topic = (sig: string) => keccak256(toHex(sig)).slice(2);
const T_TRANSFER = topic('Transfer(address,address,uint256)');
const T_SWAP_V2 = topic('Swap(address,uint256,uint256,uint256,uint256,address)');
const T_SYNC = topic('Sync(uint112,uint112)');
const T_DEPOSIT = topic('Deposit(address,uint256)');
const T_WITHDRAWAL = topic('Withdrawal(address,uint256)');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Every occurrence of one account's 40 hex digits replaced by another's, in record and info. */
function rekey(tx: TronReplayTx, from: string, to: string): TronReplayTx {
  return JSON.parse(JSON.stringify(tx).replaceAll(from.toLowerCase(), to.toLowerCase()));
}

/** Places a transaction at `block` with a fresh id: a memo appended to its signed raw data. */
function place(tx: TronReplayTx, block: number, ms: number, nonce: number, origin: string): TronReplayTx {
  const memo = nonce.toString(16).padStart(16, '0');
  const rawHex = (tx.record.raw_data_hex ?? Buffer.from(JSON.stringify(tx.record.raw_data)).toString('hex')) + '5208' + memo;
  const id = createHash('sha256').update(Buffer.from(rawHex, 'hex')).digest('hex');
  const record = { ...tx.record, txID: id, raw_data_hex: rawHex, raw_data: { ...tx.record.raw_data, data: memo }, blockNumber: block, block_timestamp: ms };
  const info = { ...tx.info, id, blockNumber: block, blockTimeStamp: ms };
  return { record, info, origin };
}

/** A SunSwap V2 swap through the router: TRX for USDT (buy) or USDT for TRX (sell). */
export function sunswapV2Swap(p: { sender: string; recipient?: string; side: 'buy' | 'sell'; trx: bigint; usdt: bigint }): TronReplayTx {
  const w = h20(p.sender);
  const to = h20(p.recipient ?? p.sender);
  const router = h20(SUNSWAP_V2_ROUTER);
  const pair = h20(WTRX_USDT_PAIR);
  const wtrx = h20(WTRX);
  const usdt = h20(USDT);
  const buy = p.side === 'buy';
  const log = buy
    ? [
        { address: wtrx, topics: [T_DEPOSIT, word(router)], data: uint(p.trx) },
        { address: wtrx, topics: [T_TRANSFER, word(router), word(pair)], data: uint(p.trx) },
        { address: usdt, topics: [T_TRANSFER, word(pair), word(to)], data: uint(p.usdt) },
        { address: pair, topics: [T_SYNC], data: uint(10n ** 15n) + uint(3n * 10n ** 14n) },
        // token0 is WTRX (0x891c… < 0xa614…): WTRX in, USDT out
        { address: pair, topics: [T_SWAP_V2, word(router), word(to)], data: uint(p.trx) + uint(0n) + uint(0n) + uint(p.usdt) },
      ]
    : [
        { address: usdt, topics: [T_TRANSFER, word(w), word(pair)], data: uint(p.usdt) },
        { address: wtrx, topics: [T_TRANSFER, word(pair), word(router)], data: uint(p.trx) },
        { address: pair, topics: [T_SYNC], data: uint(10n ** 15n) + uint(3n * 10n ** 14n) },
        { address: pair, topics: [T_SWAP_V2, word(router), word(router)], data: uint(0n) + uint(p.usdt) + uint(p.trx) + uint(0n) },
        { address: wtrx, topics: [T_WITHDRAWAL, word(router)], data: uint(p.trx) },
      ];
  const itx = (from: string, toA: string, v: bigint) => ({
    hash: createHash('sha256')
      .update(from + toA + v)
      .digest('hex'),
    caller_address: '41' + from,
    transferTo_address: '41' + toA,
    callValueInfo: [{ callValue: Number(v) }],
    note: '63616c6c',
  });
  const internal = buy ? [itx(router, wtrx, p.trx)] : [itx(wtrx, router, p.trx), itx(router, to, p.trx)];
  // swapExactETHForTokens / swapExactTokensForETH
  const selector = buy ? '7ff36ab5' : '18cbafe5';
  const record = {
    ret: [{ contractRet: 'SUCCESS' }],
    txID: '',
    blockNumber: 0,
    block_timestamp: 0,
    raw_data: {
      contract: [
        {
          parameter: {
            value: { data: selector + uint(0n), owner_address: '41' + w, contract_address: '41' + router, ...(buy ? { call_value: Number(p.trx) } : {}) },
            type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
          },
          type: 'TriggerSmartContract',
        },
      ],
    },
    internal_transactions: [],
  };
  const info = {
    id: '',
    blockNumber: 0,
    blockTimeStamp: 0,
    contractResult: [''],
    contract_address: '41' + router,
    receipt: { result: 'SUCCESS' },
    log,
    internal_transactions: internal,
  };
  return { record, info, origin: `sunswap-v2-${p.side}` };
}

const ms = (block: number) => 1_700_000_000_000 + (block - 60_000_000) * 3000;

/**
 * A wallet of at least `trades` trades (captured swaps re-keyed, and SunSwap V2 swaps), with one
 * record of noise (liquidity, failed call, USDT and TRX transfers) every `noiseEvery` swaps, and
 * swaps by another account that pay this wallet. Blocks hold one to three of its transactions.
 */
export function synthesizeTronWallet(o: {
  trades: number;
  captures: readonly TronReplayTx[];
  golden: readonly GoldenTx[];
  seed?: number;
  noiseEvery?: number;
  topBlock?: number;
}): TronSynthWallet {
  const rng = createPrng(o.seed ?? 11);
  const walletHex = createHash('sha256')
    .update(`tron-synth-${o.seed ?? 11}`)
    .digest('hex')
    .slice(0, 40);
  const wallet = hexToTron(walletHex);
  const other = hexToTron(
    createHash('sha256')
      .update(`tron-other-${o.seed ?? 11}`)
      .digest('hex')
      .slice(0, 40),
  );
  const byPrefix = (p: string) => o.captures.find((c) => c.record.txID.startsWith(p))!;
  const templates = o.golden.map((g) => ({ g, tx: byPrefix(g.txid) }));
  const noiseKinds = [
    ...['bcf3eecd', '48050008', '2233a3c9', 'b5347459', 'fb1ba8f0', '09ced888'].map((p) => byPrefix(p)),
    ...o.captures.filter((c) => c.origin.startsWith('ledger#') && c.record.raw_data.contract[0].type === 'TransferContract').slice(0, 3),
  ];
  const noiseEvery = o.noiseEvery ?? 8;

  const transactions: TronReplayTx[] = [];
  const expected: ExpectedTronTrade[] = [];
  let block = o.topBlock ?? 70_000_000;
  let inBlock = 0;
  let nonce = 1;
  let swaps = 0;
  let noise = 0;
  const nextSlot = () => {
    // one to three of the wallet's transactions per block, then a gap of empty blocks
    if (inBlock > 0 && rng() < 0.45 && inBlock < 3) {
      inBlock++;
    } else {
      block -= 1 + Math.floor(rng() * 40);
      inBlock = 1;
    }
    return block;
  };
  while (expected.length < o.trades) {
    const b = nextSlot();
    const t = ms(b);
    if (swaps > 0 && swaps % noiseEvery === 0 && noise < swaps / noiseEvery) {
      const n = noiseKinds[noise % noiseKinds.length];
      const sender = h20(hexToTron(n.record.raw_data.contract[0].parameter.value.owner_address));
      transactions.push(place(rekey(n, sender, walletHex), b, t, nonce++, `noise:${n.origin}`));
      noise++;
      // another account's swap that pays this wallet: never its trade, never in its only_from list
      const gift = sunswapV2Swap({ sender: other, recipient: wallet, side: 'buy', trx: 5_000_000n, usdt: 1_400_000n });
      transactions.push(place(gift, b, t, nonce++, 'others-swap-paying-wallet'));
      continue;
    }
    swaps++;
    let tx: TronReplayTx;
    let trades: GoldenTrade[];
    if (rng() < 0.3) {
      const side = rng() < 0.5 ? 'buy' : 'sell';
      const trx = BigInt(1 + Math.floor(rng() * 5_000)) * 1_000_000n + BigInt(Math.floor(rng() * 1_000_000));
      const usdt = (trx * 29n) / 100n + BigInt(Math.floor(rng() * 1000));
      tx = place(sunswapV2Swap({ sender: wallet, side, trx, usdt }), b, t, nonce++, `sunswap-v2-${side}`);
      trades = [{ side, token: 'USDT', tokenMint: USDT, amountSol: fmt(trx, 6), amount: fmt(usdt, 6), dex: 'sunswap-v2' }];
    } else {
      const { g, tx: tpl } = templates[Math.floor(rng() * templates.length)];
      tx = place(rekey(tpl, h20(g.wallet), walletHex), b, t, nonce++, `rekeyed:${tpl.origin}`);
      trades = g.trades;
    }
    transactions.push(tx);
    trades.forEach((tr, leg) => expected.push({ ...tr, signature: tx.record.txID, blockTime: iso(t), block: b, leg }));
  }
  expected.sort(
    (a, z) => z.block - a.block || (a.signature === z.signature ? a.leg - z.leg : BigInt('0x' + z.signature) > BigInt('0x' + a.signature) ? 1 : -1),
  );
  return { wallet, transactions, expected, noise };
}

/** Raw integer over 10^decimals as the contract writes it (no trailing zeros). */
function fmt(v: bigint, decimals: number): string {
  const s = v.toString().padStart(decimals + 1, '0');
  const int = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

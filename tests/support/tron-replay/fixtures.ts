/**
 * The real Tron captures of tests/fixtures/tron/ (copied from ../shared/fixtures/tron, see its
 * MANIFEST.tsv) turned into what the replay serves: for each transaction its TronGrid
 * `/v1/accounts/{a}/transactions` record and its `gettransactioninfobyid` answer.
 *
 * Where a capture lacks a part, it is rebuilt from what the capture does hold, and only that:
 *  - the SunSwap V1 captures (Jarvie8176) kept TronGrid's decoded events but no raw logs, and lost
 *    `call_value` to a DTO: the logs are re-encoded from the events (topic 0 = keccak-256 of the
 *    declared signature, indexed arguments as topics, the rest as data, in `event_index` order)
 *    and `call_value` is read back from `raw_data_hex` (the signed protobuf, field 3 of
 *    TriggerSmartContract). No internal transactions: the capture has none to give;
 *  - the smart-router capture is an info without its record: the record names as sender the
 *    account the route paid (the wallet contract pays its caller) and a call value of the two
 *    amounts the wallet contract forwarded (87,500 + 9,912,500 sun);
 *  - the SunPump capture is two logs: the record and info around them are built, at a block and
 *    time the capture does not give (test values, below).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keccak256, toHex } from 'viem';
import { hexToTron, tronToHex } from '../../../src/lib/chains/tron/address.js';
import { readFields } from './protobuf.js';

export const TRON_FIXTURES_DIR = join(import.meta.dirname, '../../fixtures/tron');

/** One transaction as the replay serves it. */
export interface TronReplayTx {
  /** A `/v1/accounts/{a}/transactions` record (raw_data with owner_address, blockNumber, block_timestamp, ret). */
  record: any;
  /** The `gettransactioninfobyid` answer. */
  info: any;
  /** Which capture it came from. */
  origin: string;
}

export interface TronTokenFacts {
  address: string;
  symbol: string;
  decimals: number;
  name: string;
}

const read = (f: string) => JSON.parse(readFileSync(join(TRON_FIXTURES_DIR, f), 'utf8'));

const sub = (b: Uint8Array, n: number) => readFields(b).find((f) => f.n === n && f.wire === 2)?.value as Uint8Array | undefined;

/** `call_value` of the TriggerSmartContract in a signed transaction's `raw_data_hex` (raw.contract[0].parameter.value). */
export function callValueOf(rawDataHex: string): bigint {
  const raw = Uint8Array.from(Buffer.from(rawDataHex, 'hex'));
  const contract = sub(raw, 11);
  const any = contract && sub(contract, 2);
  const trigger = any && sub(any, 2);
  if (!trigger) return 0n;
  const cv = readFields(trigger).find((f) => f.n === 3 && f.wire === 0)?.value;
  return typeof cv === 'bigint' ? cv : 0n;
}

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');
const uintWord = (v: string) => BigInt(v).toString(16).padStart(64, '0');

/** A TronGrid decoded event (`/v1/transactions/{id}/events` item) back to its raw log. */
export function rawLogOfEvent(e: any): { address: string; topics: string[]; data?: string } {
  const m = /^(\w+)\((.*)\)$/.exec(e.event);
  if (!m) throw new Error(`event signature unreadable: ${e.event}`);
  const params = m[2]
    .split(',')
    .map((p) => p.trim().split(/\s+/))
    .map((w) => ({ type: w[0], indexed: w.includes('indexed') }));
  const topic0 = keccak256(toHex(`${m[1]}(${params.map((p) => p.type).join(',')})`)).slice(2);
  const topics = [topic0];
  let data = '';
  params.forEach((p, i) => {
    const v = String(e.result[String(i)]);
    const w = p.type === 'address' ? word(v) : uintWord(v);
    if (p.indexed) topics.push(w);
    else data += w;
  });
  return { address: tronToHex(e.contract_address)!.slice(2), topics, ...(data ? { data } : {}) };
}

function fromJarvie(entry: any, origin: string): TronReplayTx {
  const d = entry.details;
  const value = { ...d.raw_data.contract[0].parameter.value };
  const cv = callValueOf(d.raw_data_hex);
  if (cv > 0n) value.call_value = Number(cv);
  const record = {
    ...d,
    blockNumber: entry.info.blockNumber,
    block_timestamp: entry.info.blockTimeStamp,
    raw_data: { ...d.raw_data, contract: [{ ...d.raw_data.contract[0], parameter: { ...d.raw_data.contract[0].parameter, value } }] },
    internal_transactions: [],
  };
  const events = [...entry.events.data].sort((a: any, b: any) => a.event_index - b.event_index);
  const info = {
    id: d.txID,
    ...(entry.info.fee ? { fee: entry.info.fee } : {}),
    blockNumber: entry.info.blockNumber,
    blockTimeStamp: entry.info.blockTimeStamp,
    contractResult: [''],
    contract_address: value.contract_address,
    receipt: { net_usage: entry.info.receipt?.net_usage, result: 'SUCCESS' },
    log: events.map(rawLogOfEvent),
  };
  return { record, info, origin };
}

/** A record for an info whose transaction was not captured (test construction, see the file comment). */
function recordFor(p: { txID: string; owner: string; contract: string; callValue: number; block: number; ms: number; data: string }): any {
  return {
    ret: [{ contractRet: 'SUCCESS' }],
    txID: p.txID,
    blockNumber: p.block,
    block_timestamp: p.ms,
    raw_data: {
      contract: [
        {
          parameter: {
            value: { data: p.data, owner_address: p.owner, contract_address: p.contract, ...(p.callValue ? { call_value: p.callValue } : {}) },
            type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
          },
          type: 'TriggerSmartContract',
        },
      ],
      timestamp: p.ms - 3000,
    },
    internal_transactions: [],
  };
}

/** SunPump's purchase has no block in its capture: placed here (after SunPump's launch in August 2024). */
export const SUNPUMP_TEST_BLOCK = { block: 64_500_000, ms: Date.UTC(2024, 7, 20) };

export function loadTronCaptures(): TronReplayTx[] {
  const out: TronReplayTx[] = [];
  for (const f of [
    'jarvie8176_sunswap-v1_justswap_swaps_details_info_events.json',
    'jarvie8176_sunswap-v1_justswap_liquidity_NEGATIVES_details_info_events.json',
  ]) {
    for (const [k, v] of Object.entries<any>(read(f))) if (!k.startsWith('_')) out.push(fromJarvie(v, `${f}#${k}`));
  }

  const ur = read('metamask-snap-tron_universalrouter_swap_captures_tx_plus_info.json');
  for (const [k, v] of Object.entries<any>(ur)) {
    if (k.startsWith('_')) continue;
    out.push({
      record: { ...v.transaction, blockNumber: v.info.blockNumber, block_timestamp: v.info.blockTimeStamp, internal_transactions: [] },
      info: v.info,
      origin: `universal-router#${v.txId}`,
    });
  }

  const sr = read('metamask-snap-tron_gettransactioninfobyid_smartrouter_multihop_TRX-to-USDT_7b6589b2.json');
  out.push({
    record: recordFor({
      txID: sr.id,
      owner: '41b7dee733611e26b1876a8c353e4e5ec023530ac7',
      contract: sr.contract_address,
      callValue: 87_500 + 9_912_500,
      block: sr.blockNumber,
      ms: sr.blockTimeStamp,
      data: '',
    }),
    info: sr,
    origin: 'smart-router#7b6589b2',
  });

  const sp = read('pinax_sunpump_legacy_tx_bccd5365_logs.json');
  const id = sp.logs[0].transaction_id;
  out.push({
    record: recordFor({
      txID: id,
      owner: '41' + sp.logs[1].topics[2].slice(-40),
      contract: sp.logs[0].log_address_hex41,
      // the purchase's 9.9 TRX and its 0.1 TRX fee (the TokenPurchased event)
      callValue: 10_000_000,
      block: SUNPUMP_TEST_BLOCK.block,
      ms: SUNPUMP_TEST_BLOCK.ms,
      data: '',
    }),
    info: {
      id,
      blockNumber: SUNPUMP_TEST_BLOCK.block,
      blockTimeStamp: SUNPUMP_TEST_BLOCK.ms,
      contractResult: [''],
      contract_address: sp.logs[0].log_address_hex41,
      receipt: { result: 'SUCCESS' },
      log: sp.logs.map((l: any) => ({ address: l.log_address_hex41.slice(2), topics: l.topics, data: l.data })),
    },
    origin: 'sunpump#bccd5365',
  });

  const failed = read('metamask-snap-tron_FAILED_sunswap-v3-positionmanager_multicall_fb1ba8f0_account-tx_and_info.json');
  const [rec, inf] = Object.values<any>(failed).filter((v) => typeof v === 'object');
  out.push({ record: rec, info: inf, origin: 'failed#fb1ba8f0' });

  const pages = read('ledger-live_fetchTronAccountTxs.SUBSET.json').TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre;
  const infos = read('ledger-live_getTransactionInfoById.fixture.json');
  for (const page of Object.values<any>(pages)) {
    for (const r of page.data) {
      const info = infos[r.txID] ?? { id: r.txID, blockNumber: r.blockNumber, blockTimeStamp: r.block_timestamp, contractResult: [''], receipt: {} };
      out.push({ record: r, info, origin: `ledger#${r.txID.slice(0, 8)}` });
    }
  }
  return out;
}

/**
 * Symbols and decimals the replay answers. From captures where they hold them (TronGrid's
 * `token_info` in the TRC-20 list, SunPump's TokenCreate log); the rest are the tokens' published
 * values, and three tokens no capture describes get test values (marked).
 */
export function loadTronTokens(): TronTokenFacts[] {
  const seen = new Map<string, TronTokenFacts>();
  const trc20 = read('ledger-live_fetchTronAccountTxsTrc20.fixture.json').TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre;
  for (const r of trc20.data) {
    const t = r.token_info;
    if (t?.address && !seen.has(t.address)) seen.set(t.address, { address: t.address, symbol: t.symbol, decimals: t.decimals, name: t.name });
  }
  const more: TronTokenFacts[] = [
    { address: 'TKkeiboTkxXKJpbmVFbv4a8ov5rAfRDMf9', symbol: 'SUNOLD', decimals: 18, name: 'SUNOLD' },
    { address: 'TSSMHYeV2uE9qYH95DqyoCuNCzEL1NvU3S', symbol: 'SUN', decimals: 18, name: 'SUN' },
    { address: 'TMwFHYXLJaRUPeW6421aqXL4ZEzPRFGkGT', symbol: 'USDJ', decimals: 18, name: 'JUST Stablecoin' },
    { address: 'TUpMhErZL2fhh4sVNULAbNKLokS4GjC1F4', symbol: 'TUSD', decimals: 18, name: 'TrueUSD' },
    { address: 'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR', symbol: 'WTRX', decimals: 6, name: 'Wrapped TRX' },
    // SunPump's TokenCreate log names it BULL; SunPump tokens have 18 decimals (1e9 supply * 1e18 in its reserve figure)
    { address: 'TRyymKZC1pQLKdqL9kgosmviZLEa4ef5Cr', symbol: 'BULL', decimals: 18, name: 'Tron_Bull' },
    // test values: no capture gives these tokens' metadata
    { address: 'TSNWgunSeGUQqBKK4bM31iLw3bn9SBWWTG', symbol: 'TSTA', decimals: 6, name: 'test A' },
    { address: 'TJASWoyYgUw2M1jvDje7zYLooDCzWYRdkm', symbol: 'TSTB', decimals: 6, name: 'test B' },
    { address: 'TYYCs9CDMbptKEJoCnmdv9zii4hZ6Ksu8A', symbol: 'TSTC', decimals: 18, name: 'test C' },
  ];
  for (const t of more) if (!seen.has(t.address)) seen.set(t.address, t);
  return [...seen.values()];
}

/** The wallet (base58) that sent a record. */
export const senderOf = (tx: TronReplayTx): string => hexToTron(tx.record.raw_data.contract[0].parameter.value.owner_address);

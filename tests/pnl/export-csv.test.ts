import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createExportWriter, currencyLabels, exportCsv, type ExportFormat, type ExportTrade } from '../../src/lib/pnl/export-csv.js';
import { csvRecords } from '../support/csv-parse.js';

/**
 * The tax-tool CSV (issue 25): each format's header is the column list kept in
 * docs/export-formats.md (read from the doc, so the two cannot drift), and a small wallet's rows,
 * worked by hand, parse back with their exact decimals.
 */
const doc = readFileSync(new URL('../../docs/export-formats.md', import.meta.url), 'utf8');
const documented = (start: string) => {
  const m = doc.match(new RegExp('`(' + start + '[^`]*)`'));
  if (!m) throw new Error(`no documented header starting ${start}`);
  return m[1].split(',');
};
const HEADERS: Record<ExportFormat, string[]> = {
  koinly: documented('Date,Sent Amount'),
  cointracker: documented('Date,Received Quantity'),
  // The eleven required columns and the first optional one, Tx-ID.
  cointracking: [...documented('Type,Buy Amount'), 'Tx-ID'],
  csv: documented('date,type,'),
};

const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const FAKE_USDC = '0xfa4e0000000000000000000000000000000000aa';
const CRV = '0xd533a949740bb3306d119cc777fa900ba034cd52';
const t = (
  signature: string,
  side: 'buy' | 'sell',
  token: string,
  tokenMint: string,
  amount: string | null,
  amountSol: string | null,
  blockTime: string,
  valueUsd: string | null = null,
): ExportTrade => ({
  signature,
  side,
  token,
  tokenMint,
  amount,
  amountSol,
  dex: 'uniswap-v3',
  blockTime,
  valueUsd,
});
// Oldest first, a transaction's legs in leg order.
const wallet: ExportTrade[] = [
  t('0xa1', 'buy', 'PEPE', '0x6982508145454ce325ddbe47a25d4ec3d2311933', '1000000.000000000000000001', '0.25', '2024-03-15T14:23:05Z', '875.5'),
  // A swap: 45 USDC for 18.47349725628421943 CRV, no native leg.
  t('0xa2', 'sell', 'USDC', USDC, '45', null, '2024-03-16T09:00:00Z', '45'),
  t('0xa2', 'buy', 'CRV', CRV, '18.47349725628421943', null, '2024-03-16T09:00:00Z', '45'),
  // A second "USDC" (anyone can mint one) and a token calling itself eth.
  t('0xa3', 'buy', 'USDC', FAKE_USDC, '10', '0.001', '2024-03-17T00:00:00Z'),
  t('0xa4', 'sell', 'eth', '0x1234ab0000000000000000000000000000000001', '5', '0.000000000000000001', '2024-03-18T00:00:00Z'),
  // A symbol that is a spreadsheet formula, with a quote and a comma.
  t('0xa5', 'sell', '=HYPERLINK("x",1)', '0x5555550000000000000000000000000000000005', '7', '1', '2024-03-19T00:00:00Z'),
  // A buy whose payment the decoder could not see.
  t('0xa6', 'buy', 'CRV', CRV, '2', null, '2024-03-20T00:00:00Z'),
];
const ctx = { chain: 'eth', wallet: '0xWallet', nativeSymbol: 'ETH' };
const read = (format: ExportFormat) => csvRecords(exportCsv(wallet, { ...ctx, format }));

describe('export formats', () => {
  it('each format writes exactly its documented columns, one row per exchange (the swap is one row)', () => {
    for (const format of ['csv', 'koinly', 'cointracker', 'cointracking'] as const) {
      const { header, records } = read(format);
      expect(header, format).toEqual(HEADERS[format]);
      expect(records, format).toHaveLength(6);
    }
    expect(HEADERS.cointracker).toHaveLength(8);
  });

  it('Koinly: sent and received, UTC dates, net worth in USD where known, the mint in the description', () => {
    const r = read('koinly').records;
    expect(r[0]).toMatchObject({
      Date: '2024-03-15 14:23:05 UTC',
      'Sent Amount': '0.25',
      'Sent Currency': 'ETH',
      'Received Amount': '1000000.000000000000000001',
      'Received Currency': 'PEPE',
      'Fee Amount': '',
      'Net Worth Amount': '875.5',
      'Net Worth Currency': 'USD',
      Label: '',
      TxHash: '0xa1',
    });
    expect(r[0].Description).toContain('0x6982508145454ce325ddbe47a25d4ec3d2311933');
    // The swap: both mints, the two USDC apart by their first 8 characters.
    expect(r[1]).toMatchObject({
      'Sent Amount': '45',
      'Sent Currency': 'USDC:0xa0b869',
      'Received Amount': '18.47349725628421943',
      'Received Currency': 'CRV',
    });
    expect(r[1].Description).toContain(USDC);
    expect(r[1].Description).toContain(CRV);
    expect(r[2]).toMatchObject({ 'Received Currency': 'USDC:0xfa4e00', 'Net Worth Amount': '', 'Net Worth Currency': '' });
    // A token that calls itself the native coin never passes for it.
    expect(r[3]).toMatchObject({ 'Sent Currency': 'eth:0x1234ab', 'Received Amount': '0.000000000000000001', 'Received Currency': 'ETH' });
    // The formula is defused, its quote and comma survive the quoting.
    expect(r[4]['Sent Currency']).toBe(`'=HYPERLINK("x",1)`);
    // One side unknown: received only, said so.
    expect(r[5]).toMatchObject({ 'Sent Amount': '', 'Sent Currency': '', 'Received Amount': '2', 'Received Currency': 'CRV' });
    expect(r[5].Description).toMatch(/amount paid is unknown/);
  });

  it('CoinTracker: received first, MM/DD/YYYY dates, nothing else', () => {
    const r = read('cointracker').records;
    expect(r[0]).toEqual({
      Date: '03/15/2024 14:23:05',
      'Received Quantity': '1000000.000000000000000001',
      'Received Currency': 'PEPE',
      'Sent Quantity': '0.25',
      'Sent Currency': 'ETH',
      'Fee Amount': '',
      'Fee Currency': '',
      Tag: '',
    });
    expect(r[1]).toMatchObject({
      'Received Quantity': '18.47349725628421943',
      'Received Currency': 'CRV',
      'Sent Quantity': '45',
      'Sent Currency': 'USDC:0xa0b869',
    });
  });

  it('CoinTracking: Trade rows, a one-sided row as a deposit, the wallet as the exchange', () => {
    const r = read('cointracking').records;
    expect(r[1]).toMatchObject({
      Type: 'Trade',
      'Buy Amount': '18.47349725628421943',
      'Buy Currency': 'CRV',
      'Sell Amount': '45',
      'Sell Currency': 'USDC:0xa0b869',
      Exchange: 'eth 0xWallet',
      Date: '2024-03-16 09:00:00',
      'Tx-ID': '0xa2',
    });
    expect(r[5]).toMatchObject({ Type: 'Deposit', 'Buy Amount': '2', 'Sell Amount': '' });
  });

  it('ours: type, mints in their own columns, ISO times, the USD value', () => {
    const r = read('csv').records;
    expect(r[0]).toMatchObject({
      date: '2024-03-15T14:23:05Z',
      type: 'buy',
      sent_token: 'native',
      received_token: '0x6982508145454ce325ddbe47a25d4ec3d2311933',
      value_usd: '875.5',
    });
    expect(r[1]).toMatchObject({ type: 'swap', sent_token: USDC, received_token: CRV, sent_amount: '45' });
    expect(r[3]).toMatchObject({ type: 'sell', sent_amount: '5', received_amount: '0.000000000000000001', received_currency: 'ETH' });
  });
});

describe('the writer', () => {
  it('holds a transaction until the next starts, so a swap cut between two reads is still one row', () => {
    const labels = currencyLabels(wallet, 'ETH');
    const w = createExportWriter({ ...ctx, format: 'csv', labels });
    expect(w.push(wallet[0])).toBe('');
    expect(w.push(wallet[1])).toMatch(/^2024-03-15T14:23:05Z,buy,/);
    expect(w.push(wallet[2])).toBe('');
    const swap = w.push(wallet[3]);
    expect(swap.split('\r\n').filter(Boolean)).toHaveLength(1);
    expect(swap).toMatch(/,swap,45,/);
    expect(w.end()).toMatch(/^2024-03-17T00:00:00Z,buy,0\.001,ETH,native,10,USDC:0xfa4e00,/);
    expect(w.end()).toBe('');
  });

  it('labels: plain symbols where unique, case-blind clashes and the native symbol marked', () => {
    const labels = currencyLabels(
      [
        { token: 'WIF', tokenMint: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm' },
        { token: 'Bonk', tokenMint: 'Bonk1111' },
        { token: 'BONK', tokenMint: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263' },
        { token: 'SOL', tokenMint: 'FakeSoL111' },
        { token: '', tokenMint: 'NoSymbol99' },
      ],
      'SOL',
    );
    expect(Object.fromEntries(labels)).toEqual({
      EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm: 'WIF',
      Bonk1111: 'Bonk:Bonk1111',
      DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263: 'BONK:DezXAZ8z',
      FakeSoL111: 'SOL:FakeSoL1',
      NoSymbol99: 'TOKEN:NoSymbol',
    });
  });
});

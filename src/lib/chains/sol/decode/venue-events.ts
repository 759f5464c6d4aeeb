/**
 * The trade events of the venues whose sells pay SOL out of the curve account without a transfer
 * (Pump.fun, Moonit): the event is then the only record of the SOL the venue paid.
 *
 * An event reaches the transaction in one of two ways, depending on the program version:
 * - `emit_cpi!`: the program calls itself with data = Anchor's EVENT_IX_TAG (e4 45 a5 2e 51 cb 9a
 *   1d) + the event discriminator + the fields;
 * - `emit!`: the program logs `Program data: <base64>` with data = discriminator + the fields
 *   (Moonit's token_launchpad IDL 0.1.0, wen-moon-ser/moonshot-sdk src/solana/program/
 *   tokenLaunchpadIdlV1.ts and V4.ts, declares no event authority: its TradeEvent is a log line).
 * Both carry the same field layout after the discriminator.
 */
import { base58Decode, base58Encode } from '../../shared/base58.js';
import { base64Bytes, readU64 } from './bytes.js';
import { MOONIT_PROGRAM, PUMPFUN_PROGRAM, SYSTEM_PROGRAM, WSOL_MINT } from '../programs.js';

/** The venue's own SOL figure for one swap, from its emitted event. */
export interface VenueEvent {
  /** Mint traded, when the event names it (Pump.fun does, Moonit names only the curve). */
  mint: string | null;
  sol: bigint;
  user: string;
}

const EVENT_CPI_TAG = [0xe4, 0x45, 0xa5, 0x2e, 0x51, 0xcb, 0x9a, 0x1d];
// sha256("event:TradeEvent")[0..8]: Pump.fun and Moonit both name their event TradeEvent.
const TRADE_EVENT = [0xbd, 0xdb, 0x7f, 0xd3, 0x4e, 0xe6, 0x61, 0xee];
// Pump.fun TradeEvent { mint, sol_amount, token_amount, is_buy, user, ... }: user ends at 81.
const PUMP_FIELDS_MIN = 32 + 8 + 8 + 1 + 32;
// Moonit TradeEvent { amount, collateral_amount, dex_fee, helio_fee, allocation, curve, cost_token,
// sender, trade_type, label }: sender ends at 5*8 + 3*32 = 136.
const MOONIT_FIELDS_MIN = 5 * 8 + 3 * 32;
// Both events are 150+ bytes with the CPI tag (200+ base58 characters); other self-invocations with
// data shorter than 100 characters are skipped without decoding.
const MIN_CPI_DATA_CHARS = 100;

export const EVENT_VENUES: ReadonlySet<string> = new Set([PUMPFUN_PROGRAM, MOONIT_PROGRAM]);

function startsWith(b: Uint8Array, at: number, pattern: number[]): boolean {
  if (b.length < at + pattern.length) return false;
  for (let i = 0; i < pattern.length; i++) if (b[at + i] !== pattern[i]) return false;
  return true;
}

/** The TradeEvent whose discriminator starts at `at`, or null. */
function readTradeEvent(programKey: string, b: Uint8Array, at: number): VenueEvent | null {
  if (!startsWith(b, at, TRADE_EVENT)) return null;
  const f = at + TRADE_EVENT.length;
  if (programKey === PUMPFUN_PROGRAM) {
    if (b.length < f + PUMP_FIELDS_MIN) return null;
    return { mint: base58Encode(b, f, 32), sol: readU64(b, f + 32), user: base58Encode(b, f + 49, 32) };
  }
  if (programKey === MOONIT_PROGRAM) {
    if (b.length < f + MOONIT_FIELDS_MIN) return null;
    // cost_token is the curve's collateral: SOL (the WSOL mint, or zeroes in older curves) or a
    // token such as USDC, whose collateral_amount is no SOL figure: the transfers then tell.
    const cost = base58Encode(b, f + 72, 32);
    if (cost !== WSOL_MINT && cost !== SYSTEM_PROGRAM) return null;
    return { mint: null, sol: readU64(b, f + 8), user: base58Encode(b, f + 104, 32) };
  }
  return null;
}

/** The trade event a venue's self-invocation (`emit_cpi!`) carries, from its base58 data. */
export function cpiTradeEvent(programKey: string, data: string | null): VenueEvent | null {
  if (!data || data.length < MIN_CPI_DATA_CHARS) return null;
  const b = base58Decode(data);
  if (!b || !startsWith(b, 0, EVENT_CPI_TAG)) return null;
  return readTradeEvent(programKey, b, EVENT_CPI_TAG.length);
}

/** The first trade event among a venue instruction's `Program data:` payloads (`emit!`). */
export function loggedTradeEvent(programKey: string, payloads: readonly string[] | undefined): VenueEvent | null {
  if (!payloads) return null;
  for (const p of payloads) {
    const b = base64Bytes(p);
    const ev = b ? readTradeEvent(programKey, b, 0) : null;
    if (ev) return ev;
  }
  return null;
}

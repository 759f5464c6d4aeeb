import { createHmac, timingSafeEqual } from 'node:crypto';
import { HistoryError } from '../../core/errors.js';

/**
 * What a cursor carries: chain, wallet and the last trade delivered (its order key and signature),
 * or `key: null` when nothing was delivered yet (read from the newest trade).
 * Encoded as base64url(JSON) + "." + base64url(HMAC-SHA256, first 16 bytes).
 */
export interface CursorPayload {
  chain: string;
  wallet: string;
  key: string | null;
  signature: string | null;
  /**
   * The list it pages through: the history (absent), the wallet's unexplained transactions, or
   * `live`: a follow stream's forward cursor (newer trades, oldest first).
   */
  list?: 'unexplained' | 'live';
}

interface Wire {
  v: 1;
  c: string;
  w: string;
  k: string | null;
  s: string | null;
  /** Absent for the history: cursors issued before lists existed stay valid. */
  l?: 'unexplained' | 'live';
}

// 128 bits of MAC: forging one is out of reach, and the cursor stays short enough to paste.
const MAC_BYTES = 16;

export interface CursorCodec {
  encode(p: CursorPayload): string;
  /** Decodes and checks a cursor for this chain and wallet; any failure is `invalid_cursor`. */
  decode(cursor: string, expected: { chain: string; wallet: string; list?: 'unexplained' | 'live' }): CursorPayload;
}

export function createCursorCodec(secret: string): CursorCodec {
  const mac = (body: string) => createHmac('sha256', secret).update(body).digest().subarray(0, MAC_BYTES);
  const invalid = (why: string) =>
    new HistoryError('invalid_cursor', 'The cursor is not one this server issued for this wallet and chain; send it back exactly as received.', {
      context: { why },
    });
  return {
    encode(p) {
      const wire: Wire = { v: 1, c: p.chain, w: p.wallet, k: p.key, s: p.signature, ...(p.list ? { l: p.list } : {}) };
      const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    decode(cursor, expected) {
      const dot = cursor.indexOf('.');
      if (dot <= 0 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(cursor)) throw invalid('shape');
      const body = cursor.slice(0, dot);
      // Compared as text: base64url decoding ignores the spare bits of the last character, so
      // comparing bytes would let edited cursors through.
      const given = Buffer.from(cursor.slice(dot + 1));
      const want = Buffer.from(mac(body).toString('base64url'));
      if (given.length !== want.length || !timingSafeEqual(given, want)) throw invalid('mac');
      let wire: Wire;
      try {
        wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw invalid('payload');
      }
      if (wire?.v !== 1 || typeof wire.c !== 'string' || typeof wire.w !== 'string') throw invalid('payload');
      if (wire.c !== expected.chain || wire.w !== expected.wallet) throw invalid('other wallet or chain');
      if ((wire.l ?? null) !== (expected.list ?? null)) throw invalid('other list');
      if (wire.k !== null && (typeof wire.k !== 'string' || !/^[0-9][0-9.:]*$/.test(wire.k))) throw invalid('key');
      return { chain: wire.c, wallet: wire.w, key: wire.k, signature: wire.s ?? null, ...(wire.l ? { list: wire.l } : {}) };
    },
  };
}

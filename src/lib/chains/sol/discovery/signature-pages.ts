/**
 * Discovery: the wallet's signatures, newest first, as getSignaturesForAddress pages, each
 * signature numbered with its trade position. Pages come in sequence (each needs the previous
 * page's last signature as `before`), so the chain of pages is a walk's critical path: 10 pages
 * x 1 round trip for 10,000 signatures. The next page is asked for as soon as a page arrives,
 * before the page is handed on; after the first page, when the consumer asks for it (see
 * `firstPageSize`).
 */
import { HistoryError, redactUrl } from '../../../core/errors.js';
import type { RpcTransport } from '../../../rpc/json-rpc.js';
import { SLOT_COUNTER_TOP, tradePosition, type WalkState } from '../position.js';
import { getSignaturesForAddress, type Commitment, type SignatureInfo, type SignaturesConfig } from '../rpc-methods.js';

export interface SignaturePagesContext {
  transport: RpcTransport;
  commitment: Commitment;
  /** Signatures per page after the first: the RPC maximum, 1,000, by default. */
  pageSize: number;
  /**
   * Signatures on the first page: the first chunk's (20). A node lists 20 signatures faster than
   * 1,000 (here: ~5 ms less of the first line's wait; on a busy node, more). One more page in
   * sequence costs a walk of 10,000 signatures one round trip that the transaction batches hide.
   */
  firstPageSize: number;
  stats: { signaturePages: number };
}

export interface SignaturePagesParameters {
  wallet: string;
  /** The walk's start: strictly older than this signature, numbering on from its slot and counter. */
  from: WalkState | null;
  /** The walk's end: the RPC stops before this signature (a refresh's head). */
  untilSignature?: string;
  signal: AbortSignal;
}

export interface SignaturePage {
  /** As listed: newest first. */
  signatures: SignatureInfo[];
  /** Each signature's walk state (its position to resume from) and trade position, by index. */
  states: WalkState[];
  positions: string[];
  /** Fewer signatures than asked for: the history (or the walk up to `untilSignature`) ends here. */
  last: boolean;
}

/**
 * The pages of a walk. The first page's successor is asked for when the consumer resumes the
 * generator (calls `next()`), not when the page arrives: the consumer asks right after its first
 * getTransaction batch, since a node answers in the order requests arrive as often as not, and
 * a page of 1,000 takes it longer to build than 20 transactions (the replay server: 5 ms against
 * 1 ms). Every later page's successor is asked for at once, before the page is handed on.
 */
export async function* signaturePages(ctx: SignaturePagesContext, p: SignaturePagesParameters): AsyncGenerator<SignaturePage, void, undefined> {
  const fetchPage = async (before: string | undefined, limit: number): Promise<SignatureInfo[]> => {
    const config: SignaturesConfig = { limit, commitment: ctx.commitment };
    if (before) config.before = before;
    if (p.untilSignature) config.until = p.untilSignature;
    const { method, params } = getSignaturesForAddress(p.wallet, config);
    const page = await ctx.transport.call<SignatureInfo[]>(method, params, { signal: p.signal, priority: 'high' });
    if (!Array.isArray(page) || page.some((s) => typeof s?.signature !== 'string' || !Number.isSafeInteger(s?.slot))) {
      throw new HistoryError('rpc_malformed_response', 'getSignaturesForAddress: expected an array of signatures', {
        context: { url: redactUrl(ctx.transport.url) },
      });
    }
    return page;
  };

  let state = p.from;
  let limit = Math.min(ctx.pageSize, ctx.firstPageSize);
  let next = fetchPage(state?.signature, limit);
  for (let first = true; ; first = false) {
    const signatures = await next;
    const last = signatures.length < limit;
    const askNext = () => {
      if (last) return;
      limit = ctx.pageSize;
      next = fetchPage(signatures[signatures.length - 1].signature, limit);
      next.catch(() => {}); // awaited on the next turn; a failure surfaces there
    };
    if (!first) askNext();
    ctx.stats.signaturePages++;
    const states: WalkState[] = [];
    const positions: string[] = [];
    for (const s of signatures) {
      // Newest first: the first signature of a slot gets 99,999 and later ones count down,
      // carried across pages through `state` (a slot split over two pages continues).
      const counter = state && state.slot === s.slot ? state.counter - 1 : SLOT_COUNTER_TOP;
      if (counter < 0) throw new HistoryError('internal', `more than ${SLOT_COUNTER_TOP + 1} signatures in slot ${s.slot}`);
      state = { signature: s.signature, slot: s.slot, counter };
      states.push(state);
      positions.push(tradePosition(s.slot, counter));
    }
    yield { signatures, states, positions, last };
    if (last) return;
    if (first) askNext();
  }
}

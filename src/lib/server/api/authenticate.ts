import { HistoryError } from '../../core/errors.js';
import type { Queryable } from '../store/database.js';
import { findAccountByKey } from '../store/accounts.js';

export interface Principal {
  accountId: number;
  account: string;
  /** The key the request came with (a follow stream checks it is still valid). */
  keyId?: number;
}

// RFC 6750 b64token: what a bearer credential may contain.
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

/** The account of the request's Bearer key; 401 for a missing, malformed, unknown or revoked key. */
export async function authenticate(db: Queryable, request: Request): Promise<Principal> {
  const header = request.headers.get('authorization');
  if (!header) throw new HistoryError('unauthorized', 'Send an API key: Authorization: Bearer <key>.');
  const m = BEARER.exec(header.trim());
  if (!m) throw new HistoryError('unauthorized', 'The Authorization header must be "Bearer <key>".');
  const found = await findAccountByKey(db, m[1]);
  if (!found) throw new HistoryError('unauthorized', 'The API key is unknown or revoked.');
  return found;
}

import { HistoryError } from '../../core/errors.js';

/**
 * A /v1 path SvelteKit cannot decode (`%ZZ`, a cut UTF-8 sequence) never reaches a route: SvelteKit
 * answers its own 400 page. The API answers a problem instead, before routing: the history route's
 * address segment as a wrong address (400 invalid_address), any other path as 400 invalid_request.
 */
export function undecodablePath(pathname: string): HistoryError | null {
  const segments = pathname.split('/');
  const bad = segments.findIndex((s) => !decodes(s));
  if (bad < 0) return null;
  if (segments.length === 5 && segments[1] === 'v1' && segments[2] === 'wallets' && segments[4] === 'history' && bad === 3) {
    return new HistoryError('invalid_address', `The address in the path is not valid percent-encoding: "${segments[3]}".`);
  }
  return new HistoryError('invalid_request', `The path is not valid percent-encoding: "${pathname}".`);
}

/** Whether `segment` is valid percent-encoding. The decoded value is used on purpose: the bundler drops a bare `decodeURIComponent(s)` call as side-effect free, and with it the throw. */
function decodes(segment: string): boolean {
  try {
    return typeof decodeURIComponent(segment) === 'string';
  } catch {
    return false;
  }
}

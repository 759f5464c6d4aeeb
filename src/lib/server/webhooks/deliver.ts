import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isRefusedAddress } from './address-policy.js';

/**
 * One webhook delivery attempt (decisions.md "Following a wallet live"): a POST with the Standard
 * Webhooks headers, signed by the `standardwebhooks` library with every current secret (two
 * during a rotation's 24 h), made so that the URL cannot reach inside the network:
 *  - the host is resolved once, and the attempt is refused when an address it gives is in a
 *    refused range (address-policy.ts) unless private addresses are allowed;
 *  - the connection goes to that checked address (Host and the TLS name from the URL), so a name
 *    that answers differently a moment later (DNS rebinding) changes nothing;
 *  - no proxy, no redirect followed (a 3xx is a failure), 10 s for the whole attempt, at most
 *    64 KB of the answer read.
 * The secret is never logged: errors name the host and the status only.
 */
export interface DeliveryRequest {
  url: string;
  /** `webhook-id`: the same for every attempt of one delivery. */
  id: string;
  body: string;
  secrets: readonly string[];
}

export interface DeliveryOptions {
  allowHttp: boolean;
  allowPrivate: boolean;
  timeoutMs?: number;
  /** Resolves a host to its addresses (tests: a name that changes its answer). */
  lookup?: (host: string) => Promise<string[]>;
  now?: () => Date;
}

export type DeliveryOutcome = { ok: true; status: number } | { ok: false; error: string };

const MAX_ANSWER_BYTES = 64 * 1024;

export const defaultLookup = async (host: string): Promise<string[]> => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why a URL cannot be a webhook's (its form), or null when it can; the address check is apart. */
export function urlProblem(raw: string, allowHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url is not a URL';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return allowHttp ? 'url must be https or http' : 'url must be https';
  if (url.username || url.password) return 'url must not carry credentials';
  if (url.hash) return 'url must not carry a fragment';
  if (raw.length > 2048) return 'url is longer than 2,048 characters';
  return null;
}

/** The addresses a webhook's host stands for now: a literal as it is, a name resolved once. */
export async function addressesOf(url: URL, lookup: (host: string) => Promise<string[]>): Promise<string[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? [host] : lookup(host);
}

export async function deliver(r: DeliveryRequest, o: DeliveryOptions): Promise<DeliveryOutcome> {
  const problem = urlProblem(r.url, o.allowHttp);
  if (problem) return { ok: false, error: problem };
  const url = new URL(r.url);
  let addresses: string[];
  try {
    addresses = await addressesOf(url, o.lookup ?? defaultLookup);
  } catch {
    return { ok: false, error: `${url.hostname} does not resolve` };
  }
  if (!addresses.length) return { ok: false, error: `${url.hostname} does not resolve` };
  if (!o.allowPrivate && addresses.some(isRefusedAddress)) return { ok: false, error: `${url.hostname} resolves to a refused address range` };
  const address = addresses[0];
  const timestamp = (o.now ?? (() => new Date()))();
  const signature = r.secrets.map((s) => new Webhook(s).sign(r.id, timestamp, r.body)).join(' ');
  const headers = {
    host: url.host,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(r.body)),
    'user-agent': 'wallet-history-webhooks/1',
    'webhook-id': r.id,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<DeliveryOutcome>((resolve) => {
    let settled = false;
    const done = (o: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(o);
    };
    const req = request(
      {
        host: address,
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: url.pathname + url.search,
        method: 'POST',
        headers,
        // The TLS name is the URL's, not the address connected to.
        // (An IPv6 literal comes bracketed in the URL, and an IP literal is no TLS name.)
        servername: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? undefined : url.hostname,
        // No pooled agent: nothing (a proxy, a kept-alive socket to an old address) is shared.
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
        function finish() {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) done({ ok: true, status });
          else if (status >= 300 && status < 400) done({ ok: false, error: `answered ${status} (redirects are not followed)` });
          else done({ ok: false, error: `answered ${status}` });
        }
      },
    );
    const timer = setTimeout(() => done({ ok: false, error: `no answer within ${(o.timeoutMs ?? 10_000) / 1000} s` }), o.timeoutMs ?? 10_000);
    req.on('error', (e: NodeJS.ErrnoException) => done({ ok: false, error: `could not be reached (${e.code ?? 'error'})` }));
    req.end(r.body);
  });
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRpc } from './anvil.js';

/**
 * An Etherscan-compatible explorer API of our own over an anvil chain: `module=account` with
 * `action=txlist` (the address's transactions, as anvil's Otterscan index lists them) and
 * `action=tokentx` (ERC-20 Transfer logs naming it), in Etherscan's shapes (decimal strings,
 * `status`/`message`/`result`, `sort`, `startblock`/`endblock`, `page`/`offset`), with an API key
 * it can insist on and entries of its own the chain does not know (an explorer on another fork).
 * Anything else answers Etherscan's NOTOK.
 */
export interface ExplorerReplay {
  url: string;
  seen: { httpRequests: number; byAction: Record<string, number> };
  close(): Promise<void>;
}

interface Entry {
  hash: string;
  blockNumber: string;
  transactionIndex: string;
  timeStamp: string;
  from: string;
  to: string;
}

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export async function startExplorerReplay(o: {
  rpcUrl: string;
  addresses: string[];
  apiKey?: string;
  /** Entries listed for an address that the chain does not have. */
  phantom?: { address: string; hash: string; blockNumber: number }[];
}): Promise<ExplorerReplay> {
  const rpc = createRpc(o.rpcUrl);
  const lists = new Map<string, { txlist: Entry[]; tokentx: Entry[] }>();
  const dec = (h: string) => String(Number(BigInt(h)));
  for (const raw of o.addresses) {
    const a = raw.toLowerCase();
    const txlist: Entry[] = [];
    for (let before = 0; ;) {
      const page = await rpc.call<{ txs: any[]; receipts: any[]; lastPage: boolean }>('ots_searchTransactionsBefore', [a, before, 500]);
      for (const t of page.txs)
        txlist.push({ hash: t.hash, blockNumber: dec(t.blockNumber), transactionIndex: dec(t.transactionIndex), timeStamp: '0', from: t.from, to: t.to ?? '' });
      if (page.lastPage || page.txs.length === 0) break;
      before = Number(BigInt(page.txs.at(-1).blockNumber));
    }
    const topic = '0x' + a.slice(2).padStart(64, '0');
    const logs = [
      ...(await rpc.call<any[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, topic] }])),
      ...(await rpc.call<any[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER, null, topic] }])),
    ];
    const tokentx = logs
      .filter((l) => l.topics.length === 3)
      .map((l) => ({ hash: l.transactionHash, blockNumber: dec(l.blockNumber), transactionIndex: dec(l.transactionIndex), timeStamp: '0', from: '', to: '' }));
    for (const p of o.phantom ?? []) {
      if (p.address.toLowerCase() !== a) continue;
      txlist.push({ hash: p.hash, blockNumber: String(p.blockNumber), transactionIndex: '0', timeStamp: '0', from: a, to: a });
    }
    const order = (x: Entry, y: Entry) => Number(y.blockNumber) - Number(x.blockNumber) || Number(y.transactionIndex) - Number(x.transactionIndex);
    lists.set(a, { txlist: txlist.sort(order), tokentx: tokentx.sort(order) });
  }

  const seen = { httpRequests: 0, byAction: {} as Record<string, number> };
  const send = (res: import('node:http').ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    seen.httpRequests++;
    const u = new URL(req.url ?? '/', 'http://x');
    const q = (k: string) => u.searchParams.get(k);
    const action = q('action') ?? '';
    seen.byAction[action] = (seen.byAction[action] ?? 0) + 1;
    if (o.apiKey && q('apikey') !== o.apiKey) return send(res, { status: '0', message: 'NOTOK', result: 'Invalid API Key' });
    if (q('module') !== 'account' || (action !== 'txlist' && action !== 'tokentx'))
      return send(res, { status: '0', message: 'NOTOK', result: 'Error! Missing Or invalid Module name' });
    const l = lists.get((q('address') ?? '').toLowerCase())?.[action] ?? [];
    const start = Number(q('startblock') ?? 0);
    const end = Number(q('endblock') ?? 1e18);
    const page = Math.max(1, Number(q('page') ?? 1));
    const offset = Math.min(10_000, Math.max(1, Number(q('offset') ?? 10_000)));
    let rows = l.filter((e) => Number(e.blockNumber) >= start && Number(e.blockNumber) <= end);
    if (q('sort') === 'asc') rows = rows.slice().reverse();
    rows = rows.slice((page - 1) * offset, page * offset);
    if (!rows.length) return send(res, { status: '0', message: action === 'txlist' ? 'No transactions found' : 'No token transfers found', result: [] });
    send(res, { status: '1', message: 'OK', result: rows });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

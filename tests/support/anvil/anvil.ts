import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A local anvil node for tests: started on a free port, killed on stop(). */
export interface AnvilNode {
  url: string;
  port: number;
  chainId: number;
  stop(): Promise<void>;
}

export interface AnvilOptions {
  chainId?: number;
  /** Keep historical state (no --prune-history): debug_traceTransaction needs it. */
  keepHistory?: boolean;
  /** State file to load (anvil --load-state). */
  loadState?: string;
  /** Extra flags. */
  args?: string[];
  /** Default cancun (fast empty blocks, below); prague for EIP-7702 accounts. */
  hardfork?: string;
}

function anvilBinary(): string {
  const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), '..', '..');
  for (const p of [path.join(root, 'node_modules/.bin/anvil'), path.join(root, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')]) {
    if (existsSync(p)) return p;
  }
  return 'anvil';
}

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const chainId = options.chainId ?? 31337;
  const args = [
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--chain-id',
    String(chainId),
    // `safe` and `finalized` then trail the head by about one block (decisions.md: confirmation point).
    '--slots-in-an-epoch',
    '1',
    // NonfungiblePositionManager is 25,322 bytes, over the EIP-170 limit of 24,576.
    '--disable-code-size-limit',
    // Measured here: 20,000 empty blocks take ~440 s with the default hardfork and full state
    // history (per-block cost grows with the chain), ~1.4 s with cancun and pruned history. The
    // source never reads historical state (eth_call at 'latest' only); logs and receipts are kept.
    '--hardfork',
    options.hardfork ?? 'cancun',
    // Call traces replay a transaction on its block's state: a scenario that reads them keeps history.
    ...(options.keepHistory ? [] : ['--prune-history']),
    ...(options.loadState ? ['--load-state', options.loadState] : []),
    ...(options.args ?? []),
  ];
  const child: ChildProcess = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // A test process that dies without teardown must not leave anvil running.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  child.once('exit', () => process.off('exit', onExit));
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${buf.slice(-500)}`)), 20_000);
    const onData = (d: Buffer) => {
      buf += d.toString();
      const m = /Listening on [\d.]+:(\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        // Keep draining the pipes so anvil never blocks on a full stdout.
        child.stdout!.on('data', () => {});
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (buf += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited with ${code}: ${buf.slice(-500)}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    chainId,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
      }),
  };
}

/** Minimal JSON-RPC client for the scenario scripts (they are not the code under test). */
export function createRpc(url: string) {
  let id = 0;
  async function call<T = any>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const j = (await res.json()) as { result?: T; error?: { message: string; data?: unknown } };
    if (j.error) throw new Error(`${method}: ${j.error.message} ${j.error.data ? JSON.stringify(j.error.data) : ''}`);
    return j.result as T;
  }
  return { call };
}

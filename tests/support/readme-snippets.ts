import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The README's shell snippets that call the API (issue 21: each is run by a test against the built
 * server on the demo's data, so a broken one fails a test instead of a new user's first hour).
 * A snippet is a paragraph of a ```sh block (lines between blank lines, comments dropped) that
 * names `http://localhost:3000`, as its commands (a line continued with `\` and a `while ... done`
 * loop are one command); a `KEY=` line is left out (the test supplies the key). The commands of a
 * paragraph share one shell (a loop reads the `url=` set before it).
 */
export function readmeApiSnippets(path = resolve(import.meta.dirname, '../../README.md')): string[][] {
  const text = readFileSync(path, 'utf8');
  const out: string[][] = [];
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const para of m[1].split(/\n\s*\n/)) {
      const lines = para.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#') && !/^KEY=/.test(l.trim()));
      if (!lines.some((l) => l.includes('http://localhost:3000'))) continue;
      const commands: string[] = [];
      let cur: string[] = [];
      for (const l of lines) {
        cur.push(l);
        const text = cur.join('\n');
        const open = (text.match(/\bdo\b/g) ?? []).length - (text.match(/\bdone\b/g) ?? []).length;
        if (!l.trimEnd().endsWith('\\') && open <= 0) {
          commands.push(text);
          cur = [];
        }
      }
      if (cur.length) commands.push(cur.join('\n'));
      out.push(commands);
    }
  }
  return out;
}

/**
 * A snippet pointed at a running server and its wallets: the origin replaced, and each wallet path
 * given the wallet of its chain (`chain=` in the same URL, `sol` when absent); a chain the server
 * does not serve is renamed (`eth` to the demo's EVM chain, say).
 */
export function pointSnippet(snippet: string, origin: string, walletOf: Record<string, string>, renameChain: Record<string, string> = {}): string {
  return snippet
    .replace(/http:\/\/localhost:3000(\/v1\/wallets\/)([^/?"\s]+)([^"\s]*)/g, (_, prefix: string, _address: string, rest: string) => {
      const chain = /[?&]chain=([a-z0-9-]+)/.exec(rest)?.[1] ?? 'sol';
      const served = renameChain[chain] ?? chain;
      const wallet = walletOf[served];
      if (!wallet) throw new Error(`no wallet for chain ${served} in: ${snippet}`);
      return `${origin}${prefix}${wallet}${rest.replace(`chain=${chain}`, `chain=${served}`)}`;
    })
    .replaceAll('http://localhost:3000', origin);
}

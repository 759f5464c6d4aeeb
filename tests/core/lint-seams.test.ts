import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rules that keep the house plan (docs/architecture.md), checked on the project's own
 * ESLint configuration: a server, dashboard or route file that imports a family's internals fails
 * `npm run lint`, the family table and the registry may, and so may a family's own folder; a
 * function in src/lib over 150 lines fails too.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function rulesHit(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

const LEAKS = [
  "import { dexAddress } from '../../chains/evm/registry.js';\nexport const f = dexAddress;\n",
  "import type { SolanaDecoder } from '$lib/chains/sol/source.js';\nexport type T = SolanaDecoder;\n",
  "import { base58Encode } from '../chains/shared/base58.js';\nexport const f = base58Encode;\n",
];

describe('the family seam', () => {
  for (const file of ['src/lib/server/api/x.ts', 'src/lib/dashboard/x.ts', 'src/routes/x/+server.ts', 'src/hooks.server.ts']) {
    it(`refuses a family's internals in ${file}`, async () => {
      for (const code of LEAKS) expect(await rulesHit(file, code)).toContain('no-restricted-imports');
    });
  }

  it('lets the family table, the registry and a family folder import family internals', async () => {
    for (const file of ['src/lib/chains/families.ts', 'src/lib/chains/registry.ts', 'src/lib/chains/evm/x.ts']) {
      expect(await rulesHit(file, LEAKS[0])).not.toContain('no-restricted-imports');
    }
  });

  it('lets the server reach families through the table and the registry', async () => {
    const code =
      "import { FAMILIES } from '../../chains/families.js';\nimport { toPublicChain } from '../../chains/registry.js';\nexport const f = [FAMILIES, toPublicChain];\n";
    expect(await rulesHit('src/lib/server/api/x.ts', code)).toEqual([]);
  });
});

describe('function length', () => {
  const fn = (lines: number) => `export function f(): number {\n  let n = 0;\n${'  n++;\n'.repeat(lines)}  return n;\n}\n`;
  it('refuses a function of more than 150 lines in src/lib, comments and blank lines aside', async () => {
    expect(await rulesHit('src/lib/core/x.ts', fn(150))).toContain('max-lines-per-function');
    expect(await rulesHit('src/lib/core/x.ts', fn(140))).not.toContain('max-lines-per-function');
    expect(await rulesHit('src/lib/core/x.ts', fn(140).replace('  let n = 0;\n', `  let n = 0;\n${'  // why\n\n'.repeat(40)}`))).not.toContain(
      'max-lines-per-function',
    );
  });
});

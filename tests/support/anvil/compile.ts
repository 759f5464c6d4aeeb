import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Abi, Hex } from 'viem';
import type { Artifact } from './contracts.js';

/**
 * Compiles a Solidity file of the tests with the pinned `solc` npm package (its compiler is
 * bundled JavaScript: offline, the same bytes on every machine). Self-contained sources only:
 * imports are refused, so a test's contract is readable in one file.
 */
const require = createRequire(import.meta.url);

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>;
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

export function compileSolidity(file: URL): Record<string, Artifact> {
  const solc = require('solc') as { compile(input: string, opts?: unknown): string };
  const input = {
    language: 'Solidity',
    sources: { 'main.sol': { content: readFileSync(file, 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: () => ({ error: 'imports are not used here' }) })) as SolcOutput;
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const result: Record<string, Artifact> = {};
  for (const [name, c] of Object.entries(out.contracts['main.sol'] ?? {})) result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` as Hex };
  return result;
}

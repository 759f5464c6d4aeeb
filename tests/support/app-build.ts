import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The API suites and benchmarks run the built app's route files (tests/support/app.ts), so the
 * build output must match src/. `npm test` builds first and this finds it current; a developer
 * running one suite after an edit gets a rebuild on the suite's first request (about 15 s) instead
 * of stale routes, and suites that never serve the app never build it. One build at a time:
 * concurrent processes wait for the one building. Each process loads a copy of the output made
 * for that build, so a build started meanwhile (another run, `npm run build`) cannot pull files
 * from under it.
 */
const ROOT = resolve(import.meta.dirname, '../..');
/** What SvelteKit builds the server into (adapter-node bundles it into build/ from there). */
export const KIT_OUTPUT = join(ROOT, '.svelte-kit/output/server');
const LOCK = join(ROOT, '.svelte-kit', '.build-lock');

function newest(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = st.mtimeMs;
  for (const name of readdirSync(path)) m = Math.max(m, newest(join(path, name)));
  return m;
}

function builtAt(): number {
  try {
    return statSync(join(KIT_OUTPUT, 'index.js')).mtimeMs;
  } catch {
    return 0;
  }
}

const stale = () =>
  builtAt() < Math.max(newest(join(ROOT, 'src')), ...['svelte.config.js', 'vite.config.ts', 'package-lock.json'].map((f) => newest(join(ROOT, f))));

/** The directory of a current copy of the app's server build, built first when src/ is newer. */
export async function ensureAppBuild(): Promise<string> {
  mkdirSync(join(ROOT, '.svelte-kit'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // Another run builds; a lock older than 3 minutes belongs to a run that died.
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 180_000) rmdirSync(LOCK);
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (stale()) {
      // On stderr: a child server's first stdout line is its address (serve-scripted.ts).
      console.error('The app build is older than src/: building it for the API suites (vite build)...');
      execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    return snapshot();
  } finally {
    rmdirSync(LOCK);
  }
}

/** A copy of the build output named by its build time (made once, then shared); the last three are kept. */
function snapshot(): string {
  const parent = join(ROOT, '.svelte-kit', 'test-app');
  const dir = join(parent, String(Math.floor(builtAt())));
  if (!existsSync(dir)) {
    cpSync(KIT_OUTPUT, `${dir}.tmp`, { recursive: true });
    renameSync(`${dir}.tmp`, dir);
  }
  const old = readdirSync(parent)
    .filter((n) => /^\d+$/.test(n))
    .sort((a, b) => Number(b) - Number(a))
    .slice(3);
  for (const n of old) rmSync(join(parent, n), { recursive: true, force: true });
  return dir;
}

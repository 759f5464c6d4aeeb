/**
 * `Program data:` lines of a transaction's log, each charged to the instruction that wrote it.
 *
 * Anchor's `emit!` writes an event as a `Program data: <base64>` log line of the running program
 * (`emit_cpi!` instead calls the program itself, which the instruction list already shows). Some
 * venue versions only log their event (Moonit's token_launchpad IDL 0.1.0 has no event authority,
 * so its TradeEvent is a log line), and the log is then the only place the venue's own SOL figure
 * is written.
 *
 * The runtime logs `Program <id> invoke [<depth>]` when an instruction starts and `Program <id>
 * success` / `Program <id> failed: ...` when it ends, in execution order: the same order as the
 * instruction list (each top-level instruction followed by its inner ones). Each invoke line is
 * matched to the next instruction of that program at that level (top-level or inner); an
 * instruction that logs no invoke line (the signature-verify precompiles) is passed over.
 *
 * The same lines give the nesting of inner instructions in transactions recorded before the RPC
 * kept each inner instruction's stackHeight (2022 and earlier: every inner instruction then looks
 * like a direct child of its top-level one, and a venue's own transfers like its router's).
 */
import type { SolTransaction } from './normalize.js';

// A program id is base58, 32-44 characters; `Program log:`, `Program data:`, `Program return:`
// and `Program consumption:` lines carry a colon there and never match.
const PROGRAM_ID = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const DATA_PREFIX = 'Program data: ';

/** `Program <id> <rest>` -> [id, rest], or null for any other line (log, data, return, truncated). */
function programLine(line: string): [string, string] | null {
  if (!line.startsWith('Program ')) return null;
  const space = line.indexOf(' ', 8);
  if (space < 0) return null;
  const id = line.slice(8, space);
  return PROGRAM_ID.test(id) ? [id, line.slice(space + 1)] : null;
}

/** The depth `invoke [<depth>]` states, or 0 for another line. */
function invokeDepth(rest: string): number {
  if (!rest.startsWith('invoke [')) return 0;
  const depth = Number.parseInt(rest.slice(8), 10);
  return Number.isInteger(depth) && depth > 0 ? depth : 0;
}

/**
 * Reads the depth of each instruction from the log, in execution order: called once per
 * instruction (top-level ones included, to stay aligned), it answers the depth of the next invoke
 * line of that program at that level, or null when the log has none (absent or truncated).
 */
export function logDepthReader(logs: readonly string[]): (programKey: string, topLevel: boolean) => number | null {
  const ids: string[] = [];
  const depths: number[] = [];
  for (const line of logs) {
    const p = programLine(line);
    const depth = p ? invokeDepth(p[1]) : 0;
    if (depth === 0) continue;
    ids.push(p![0]);
    depths.push(depth);
  }
  let next = 0;
  return (programKey, topLevel) => {
    for (let j = next; j < ids.length; j++) {
      if (ids[j] === programKey && (depths[j] === 1) === topLevel) {
        next = j + 1;
        return depths[j];
      }
    }
    return null;
  };
}

/** Instruction index -> the base64 payloads it logged, in log order. Empty when there is no log. */
export function programDataByInstruction(tx: SolTransaction): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const logs = tx.logs;
  if (!logs) return out;
  const { instructions, keys } = tx;
  // Instruction index per open invocation (-1 for one the instruction list does not show).
  const stack: number[] = [];
  let next = 0;
  for (const line of logs) {
    if (line.startsWith(DATA_PREFIX)) {
      const top = stack.length > 0 ? stack[stack.length - 1] : -1;
      if (top < 0) continue;
      const list = out.get(top);
      const payload = line.slice(DATA_PREFIX.length);
      if (list) list.push(payload);
      else out.set(top, [payload]);
      continue;
    }
    const p = programLine(line);
    if (!p) continue;
    const [id, rest] = p;
    const depth = invokeDepth(rest);
    if (depth > 0) {
      const topLevel = depth === 1;
      let found = -1;
      for (let j = next; j < instructions.length; j++) {
        const ix = instructions[j];
        const isTop = ix.parent < 0;
        if (keys[ix.program] === id && isTop === topLevel) {
          found = j;
          break;
        }
      }
      if (found >= 0) next = found + 1;
      stack.push(found);
    } else if (rest === 'success' || rest.startsWith('failed')) {
      stack.pop();
    }
  }
  return out;
}

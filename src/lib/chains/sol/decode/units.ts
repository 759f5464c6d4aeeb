/**
 * Units of a transaction: the top-level instructions that make up one route.
 *
 * A route is normally one top-level instruction (a router's `route`, or a direct swap). Jupiter
 * before v4 ran one leg per top-level instruction instead: its IDL has one swap instruction per
 * venue (`raydiumSwapV2`, `whirlpoolSwap`, `serumSwap`, ...), `setTokenLedger` to hand a leg's
 * output to the next, and `riskCheckAndFee` after the last (@jup-ag/core 1.x and 2.x,
 * src/lib/idl/jupiter.ts). A SOL -> USDC -> token route is then two or more top-level
 * instructions, and only together do they show a SOL leg and the token bought. Consecutive
 * top-level instructions of such a router are one unit; top-level instructions between them of
 * programs that are no venue (creating or closing the token accounts) do not end the route.
 */
import type { SolTransaction } from './normalize.js';
import { LEG_PER_INSTRUCTION_ROUTERS, TRANSPARENT_PROGRAMS } from '../programs.js';

/** Top-level instruction index -> the index of the first top-level instruction of its unit. */
export function unitsOf(tx: SolTransaction): Int32Array {
  const { instructions, keys } = tx;
  const count = instructions.length > 0 ? instructions[instructions.length - 1].outer + 1 : 0;
  const unitOf = new Int32Array(count);
  let run = -1;
  let runProgram = '';
  for (const ix of instructions) {
    if (ix.parent >= 0) continue;
    const o = ix.outer;
    const programKey = keys[ix.program] ?? '';
    unitOf[o] = o;
    if (run >= 0 && programKey === runProgram) unitOf[o] = run;
    else if (LEG_PER_INSTRUCTION_ROUTERS.has(programKey)) [run, runProgram] = [o, programKey];
    else if (!TRANSPARENT_PROGRAMS.has(programKey)) run = -1;
  }
  return unitOf;
}

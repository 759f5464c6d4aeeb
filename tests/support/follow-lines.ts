import { expect } from 'vitest';
import { ndjsonLines } from './ndjson-lines.js';

/** A follow stream's lines (issue 24), amounts kept as the exact text written. */
export interface Line {
  trades?: { signature: string; side: string; tokenMint: string; amount: string; amountSol: string | null }[];
  cursor?: string;
  liveCursor?: string;
  live?: boolean;
  end?: boolean;
  complete?: boolean;
  code?: string;
}

/**
 * Reads a stream line by line, calling `onLine` as each arrives (so the test can act mid-stream);
 * `onLine` returning true stops reading (the client leaves).
 */
export async function readLines(res: Response, onLine: (l: Line, all: Line[]) => unknown): Promise<Line[]> {
  expect(res.status).toBe(200);
  const all: Line[] = [];
  for await (const raw of ndjsonLines(res)) {
    const line = JSON.parse(raw.replace(/:(-?\d+\.\d+)/g, ':"$1"')) as Line;
    all.push(line);
    if ((await onLine(line, all)) === true) break;
  }
  return all;
}

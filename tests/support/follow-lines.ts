import { expect } from 'vitest';

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
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const all: Line[] = [];
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = JSON.parse(buf.slice(0, nl).replace(/:(-?\d+\.\d+)/g, ':"$1"')) as Line;
      buf = buf.slice(nl + 1);
      all.push(line);
      if ((await onLine(line, all)) === true) {
        await reader.cancel();
        return all;
      }
    }
  }
  return all;
}

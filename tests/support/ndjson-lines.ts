/**
 * A response body's NDJSON lines as they arrive, each as its raw text (the caller parses: exact
 * amounts want their own parse). Leaving the loop early cancels the body; a connection that dies
 * mid-stream throws from the loop, after every whole line read before it. Text after the last
 * newline is not a line (the service ends every line with one; a cut-off line is what a killed
 * server leaves).
 */
export async function* ndjsonLines(res: Response): AsyncGenerator<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let done = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buf += decoder.decode(chunk.value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        yield line;
      }
    }
    done = true;
  } finally {
    if (!done) await reader.cancel().catch(() => {});
  }
}

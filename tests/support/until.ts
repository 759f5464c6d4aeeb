/** Waits until `ok` holds, checking every `everyMs`; past `ms`, fails saying what it waited for. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000, everyMs = 50): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

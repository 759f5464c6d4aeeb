/**
 * One 'abort' listener per signal, fanned out to many callbacks. A walk shares one signal among
 * every queued and in-flight request (16 chunks ahead, retries sleeping, symbol lookups), and
 * Node warns past 10 listeners on one AbortSignal; this keeps it at one.
 */
const hubs = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `callback` once when `signal` aborts; returns the function that unsubscribes. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let set = hubs.get(signal);
  if (!set) {
    const callbacks = new Set<() => void>();
    hubs.set(signal, callbacks);
    signal.addEventListener(
      'abort',
      () => {
        for (const f of [...callbacks]) f();
        callbacks.clear();
      },
      { once: true },
    );
    set = callbacks;
  }
  set.add(callback);
  return () => set.delete(callback);
}

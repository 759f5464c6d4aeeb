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

/** Resolves when `schedule` calls back (it returns how to cancel); an abort cancels and rejects with the signal's reason. */
function whenCalled(schedule: (done: () => void) => () => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const cancel = schedule(() => {
      unsubscribe();
      resolve();
    });
    const unsubscribe = signal
      ? onAbort(signal, () => {
          cancel();
          reject(signal.reason);
        })
      : () => {};
  });
}

/**
 * The one wait helper of the project: resolves after `ms`, rejects with the abort reason when
 * `signal` aborts first (callers that want to stop quietly catch it).
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return whenCalled((done) => {
    const t = setTimeout(done, ms);
    return () => clearTimeout(t);
  }, signal);
}

/**
 * Resolves on the next turn of the event loop, once I/O that is ready has been taken in:
 * setImmediate in Node, a MessageChannel message in a browser (setTimeout(0) is stretched to 4 ms
 * there once nested). Shorter than `sleep(0)` in Node (at least 1 ms), and too short for a
 * request just started to be written to its socket.
 */
export function nextTurn(signal?: AbortSignal): Promise<void> {
  return whenCalled((done) => {
    if (typeof setImmediate === 'function') {
      const t = setImmediate(done);
      return () => clearImmediate(t);
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      done();
    };
    channel.port2.postMessage(null);
    return () => channel.port1.close();
  }, signal);
}

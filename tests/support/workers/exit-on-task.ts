// A worker that starts fine and dies on its first task (exit code 3): what a crash looks like to the pool.
import { parentPort } from 'node:worker_threads';

parentPort!.postMessage({ ready: true });
parentPort!.on('message', () => process.exit(3));

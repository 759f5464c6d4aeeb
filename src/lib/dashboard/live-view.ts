/** The live indicator's words (LiveToggle.svelte): pure, so the states are tested without a page. */
import type { LiveState } from './db.js';

/** `HH:MM:SS` in the person's local time: "last checked" is read against the clock on the wall. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** What the indicator says beside the toggle; empty when Live is off. */
export function liveText(on: boolean, state: LiveState | null | undefined, checkedAt: number | null | undefined): string {
  if (!on) return '';
  const last = checkedAt ? ` · last checked ${clockTime(checkedAt)}` : '';
  if (state === 'offline') return `offline, will resume${last}`;
  if (state === 'live') return `last checked ${checkedAt ? clockTime(checkedAt) : '—'}`;
  return `connecting${last}`;
}

/** No highlighted rows. */
export const NO_ROWS: ReadonlySet<never> = new Set();

/**
 * The rows that came in above the ones shown before (`before`, newest first): a live arrival
 * slides in on top, so they are the ones in front of the previous first row. Added to `shown`.
 * None when the rows were read anew (the previous first row is gone) or only grew at the bottom.
 */
export function arrivedOnTop<T>(before: readonly T[], after: readonly T[], shown: ReadonlySet<T> = NO_ROWS): ReadonlySet<T> {
  if (!before.length || after[0] === before[0]) return shown;
  const k = after.indexOf(before[0]);
  if (k <= 0) return shown;
  const next = new Set(shown);
  for (let i = 0; i < k; i++) next.add(after[i]);
  return next;
}

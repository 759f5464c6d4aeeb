/**
 * The window of a virtualised list: which rows to put in the DOM for a scroll offset. Rows outside
 * the viewport plus `overscan` on each side are not rendered, so the DOM holds about
 * viewport / rowHeight + 2 * overscan rows (about 36 at 600 px and 36 px rows) whatever the count.
 */
export interface VirtualWindow {
  start: number;
  end: number;
  /** Offset of row `start` from the top of the list, in px. */
  offset: number;
  /** Height of the whole list, in px. */
  total: number;
}

export function virtualWindow(count: number, rowHeight: number, scrollTop: number, viewport: number, overscan = 8): VirtualWindow {
  const total = count * rowHeight;
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(viewport / rowHeight) + 1;
  const start = Math.max(0, Math.min(first - overscan, count));
  const end = Math.min(count, first + visible + overscan);
  return { start, end: Math.max(start, end), offset: start * rowHeight, total };
}

/** Hands text to the browser as a file download (the CSV exports): an object URL on a clicked link. */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later, not at once: the download may still be reading it.
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

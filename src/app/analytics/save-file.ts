/** Saves a Blob as a download through a short-lived object URL (the key never goes in a URL). */
export function saveFile(blob: Blob, filename: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  doc.body.appendChild(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download the click started.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

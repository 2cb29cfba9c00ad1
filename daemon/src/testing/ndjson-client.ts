/** A live NDJSON stream read the way the console reads it: fetch with the key, one JSON value a line. */
export interface NdjsonClient {
  /** Every line received so far, as the parsed values and as the exact text. */
  readonly lines: { value: any; text: string }[];
  /** Resolves when the stream ends, whatever the reason (closed, daemon killed, aborted). */
  readonly ended: Promise<void>;
  close(): void;
}

export async function openNdjsonClient(
  base: string,
  key: string,
  path: string,
  onLine: (value: any, text: string) => void = () => undefined,
): Promise<NdjsonClient> {
  const controller = new AbortController();
  const response = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  const lines: { value: any; text: string }[] = [];
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const text = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          const parsed: unknown = JSON.parse(text);
          lines.push({ value: parsed, text });
          onLine(parsed, text);
        }
      }
    } catch {
      // The connection went away (a killed daemon, an abort): what arrived is kept.
    }
  })();
  return { lines, ended, close: () => controller.abort() };
}

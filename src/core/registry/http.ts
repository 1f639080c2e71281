// One bounded HTTP GET: the caller's AbortSignal carries the deadline, and the body is counted
// while it streams so an oversized (or endless) response is cut off at `maxBytes`, not buffered.

export type HttpFailureCode = 'remote-timeout' | 'remote-unreachable' | 'remote-http-error' | 'remote-too-large';

export type HttpOutcome =
  | { ok: true; notModified: false; body: Buffer; etag: string | null }
  | { ok: true; notModified: true }
  | { ok: false; code: HttpFailureCode; message: string };

export interface HttpRequest {
  signal: AbortSignal;
  maxBytes: number;
  headers?: Record<string, string>;
}

export async function fetchBounded(url: string, request: HttpRequest): Promise<HttpOutcome> {
  let response: Response;
  try {
    response = await fetch(url, { signal: request.signal, headers: request.headers ?? {}, redirect: 'follow' });
  } catch (error) {
    return failure(error, request.signal, url);
  }
  if (response.status === 304) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: true, notModified: true };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { ok: false, code: 'remote-http-error', message: `${url} answered ${response.status} ${response.statusText}`.trim() };
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > request.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return tooLarge(url, request.maxBytes, `${declared} bytes announced`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > request.maxBytes) {
          await reader.cancel().catch(() => undefined);
          return tooLarge(url, request.maxBytes, 'body kept coming');
        }
        chunks.push(value);
      }
    } catch (error) {
      return failure(error, request.signal, url);
    }
  }
  return { ok: true, notModified: false, body: Buffer.concat(chunks, total), etag: response.headers.get('etag') };
}

function tooLarge(url: string, maxBytes: number, detail: string): HttpOutcome {
  return { ok: false, code: 'remote-too-large', message: `${url} is larger than the limit of ${maxBytes} bytes (${detail})` };
}

function failure(error: unknown, signal: AbortSignal, url: string): HttpOutcome {
  const name = (error as Error | undefined)?.name;
  if (signal.aborted || name === 'TimeoutError' || name === 'AbortError') {
    return { ok: false, code: 'remote-timeout', message: `${url} did not answer in time` };
  }
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return { ok: false, code: 'remote-unreachable', message: `cannot reach ${url}: ${detail}` };
}

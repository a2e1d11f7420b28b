import { FeedError } from './feed.js';

export interface FetchLimits {
  /** The whole exchange, body included: a feed that trickles is abandoned too. */
  timeoutMs: number;
  maxBytes: number;
}

/**
 * GETs `url` and returns its body as text, refusing (with a {@link FeedError}) an answer that is not a 2xx, that
 * says or turns out to be bigger than `maxBytes` (reading stops there: a huge feed is never held whole), or that
 * does not finish within `timeoutMs` (or before `cancel` aborts).
 */
export async function fetchFeed(url: string, limits: FetchLimits, cancel?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  try {
    const res = await fetch(url, {
      signal,
      headers: { accept: 'application/feed+json, application/json;q=0.9' },
      redirect: 'follow',
    });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new FeedError(`answered ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length'));
    if (declared > limits.maxBytes) {
      await res.body.cancel();
      throw new FeedError(`bigger than ${limits.maxBytes} bytes (${declared})`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) {
        await reader.cancel();
        throw new FeedError(`bigger than ${limits.maxBytes} bytes`);
      }
      chunks.push(value);
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  } catch (err) {
    if (err instanceof FeedError) throw err;
    if (cancel?.aborted) throw new FeedError('cancelled: the server is stopping');
    if (timeout.aborted) throw new FeedError(`no complete answer within ${limits.timeoutMs} ms`);
    throw new FeedError(`could not be fetched: ${(err as Error).message}`);
  }
}

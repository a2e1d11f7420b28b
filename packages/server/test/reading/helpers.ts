import { expect } from 'vitest';
import { basic, type TestServer } from '../support/server.js';

/** A user created through the API; `body` overrides roles, shared libraries, restrictions. */
export async function createUser(
  s: TestServer,
  admin: string,
  email: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; authorization: string }> {
  const res = await s.fetch('/api/v2/users', {
    method: 'POST',
    headers: { authorization: admin },
    json: { email, password: 'reader-secret', ...body },
  });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return { id, authorization: basic(email, 'reader-secret') };
}

/** A request as `authorization`, the body read (JSON when there is one) so no connection stays busy. */
export async function call(
  s: TestServer,
  authorization: string,
  method: string,
  path: string,
  json?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await s.fetch(path, { method, headers: { authorization, ...headers }, json });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body, headers: res.headers };
}

export interface EventStream {
  /** Events received so far, parsed. */
  readonly events: { type: string; data: Record<string, unknown> }[];
  /** Reads until `predicate` holds over the events received, or fails after `timeoutMs`. */
  until(
    predicate: (events: { type: string; data: Record<string, unknown> }[]) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /** Reads whatever arrives during `ms`. */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** The caller's `/sse/v1/events` stream. */
export async function openEvents(s: TestServer, authorization: string): Promise<EventStream> {
  const res = await s.fetch('/sse/v1/events', { headers: { authorization, accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const parse = () => {
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const type = /^event:(.*)$/m.exec(block)?.[1];
      const data = /^data:(.*)$/m.exec(block)?.[1];
      if (type && data) events.push({ type, data: JSON.parse(data) as Record<string, unknown> });
    }
  };
  const readFor = async (ms: number) => {
    const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), ms))]);
    if (chunk && !chunk.done) {
      text += decoder.decode(chunk.value, { stream: true });
      parse();
    }
    return chunk;
  };
  return {
    events,
    async until(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(events)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`timed out waiting for events; got ${JSON.stringify(events)}`);
        const chunk = await readFor(left);
        if (chunk?.done) throw new Error(`stream ended; got ${JSON.stringify(events)}`);
      }
    },
    async drain(ms) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        const chunk = await readFor(deadline - Date.now());
        if (chunk?.done) return;
      }
    },
    close: () => reader.cancel().catch(() => undefined),
  };
}

/** Waits until `check` passes (polling), or rethrows its last failure after `timeoutMs`. */
export async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

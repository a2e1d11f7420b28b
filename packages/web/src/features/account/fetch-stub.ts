import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

/**
 * Replaces global fetch with a table of answers (`'GET /api/v1/settings'` → status and JSON); unknown requests get
 * 404. Every request is recorded, body parsed as JSON.
 */
export function stubFetch(answers: Record<string, { status?: number; json?: unknown }>) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({ method, path: url.pathname, search: url.search, body });
    const answer = answers[`${method} ${url.pathname}`];
    const status = answer?.status ?? (answer ? 200 : 404);
    if (status === 204) return new Response(null, { status });
    const json = answer?.json ?? (status >= 400 ? { status, message: 'Not Found' } : {});
    return new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, fetchMock };
}

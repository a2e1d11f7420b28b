import type { FastifyReply, FastifyRequest } from 'fastify';

/** Headers that belong to one connection, or that fetch sets itself: never forwarded either way. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'content-encoding',
  'accept-encoding',
  'cookie',
  'set-cookie',
]);

const STORE_TIMEOUT_MS = 30_000;

/** A call to the Kobo store: the device's path (after its API key), method, headers and body. */
export interface StoreCall {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/**
 * Sends a call to the Kobo store (only when the administrator turned `koboProxy` on: the routes decide). The
 * device's own headers go along (its store authorization among them), so the store answers as it would the device.
 */
export async function callStore(storeUrl: string, call: StoreCall): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(call.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name.toLowerCase())) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = call.method !== 'GET' && call.method !== 'HEAD' && call.body !== undefined;
  return fetch(storeUrl + call.path, {
    method: call.method,
    headers,
    body: hasBody ? (typeof call.body === 'string' ? call.body : JSON.stringify(call.body)) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(STORE_TIMEOUT_MS),
  });
}

/** The device's request forwarded to the store, and the store's answer given back as it came. */
export async function forwardToStore(storeUrl: string, req: FastifyRequest, reply: FastifyReply, path: string) {
  const res = await callStore(storeUrl, { method: req.method, path, headers: req.headers, body: req.body });
  reply.code(res.status);
  res.headers.forEach((value, name) => {
    if (!NOT_FORWARDED.has(name)) reply.header(name, value);
  });
  return reply.send(Buffer.from(await res.arrayBuffer()));
}

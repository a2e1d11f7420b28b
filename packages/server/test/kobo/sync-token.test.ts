import { describe, expect, it } from 'vitest';
import { decodeSyncToken, encodeSyncToken } from '../../src/reading/kobo-sync.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const fresh = { version: 1, rawKoboSyncToken: '', ongoingSyncPointId: null, lastSuccessfulSyncPointId: null };

describe('the Kobo sync token (api.md §8.2)', () => {
  it("is Komga's: KOMGA. and base64 JSON, read back as written", () => {
    const token = { ...fresh, rawKoboSyncToken: 'raw', ongoingSyncPointId: 'A', lastSuccessfulSyncPointId: 'B' };
    const encoded = encodeSyncToken(token);
    expect(encoded).toBe(`KOMGA.${b64(token)}`);
    expect(decodeSyncToken(encoded)).toEqual(token);
  });

  it("keeps the Kobo store's token and Calibre-Web's store token, as a first sync", () => {
    const store = `${Buffer.from('{"typ":"JWT","alg":"none"}').toString('base64')}.payload.sig`;
    expect(decodeSyncToken(store)).toEqual({ ...fresh, rawKoboSyncToken: store });
    const calibreWeb = b64({ version: '1-1-0', data: { raw_kobo_store_token: 'from-cw', books_last_modified: 0 } });
    expect(decodeSyncToken(calibreWeb)).toEqual({ ...fresh, rawKoboSyncToken: 'from-cw' });
  });

  it('starts afresh from anything else', () => {
    for (const bad of [
      undefined,
      '',
      'garbage',
      'KOMGA.!!!',
      `KOMGA.${b64([1])}`,
      `KOMGA.${b64({ ongoingSyncPointId: 3 })}`,
    ])
      expect(decodeSyncToken(bad), String(bad)).toEqual(fresh);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { QuireEvent } from '@quire/api';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { writeCbz } from '../support/library-builder.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

/**
 * A server with two libraries of real CBZ books (each with its generated poster) and users whose
 * restrictions hide part of them:
 *
 *   library A: Alpha (a1 2001-05-01, a2 1999-01-01), Mature (age rating 16; m1 2000-01-01), Charlie (c1, no date)
 *   library B: Bravo (b1 2000-06-01, b2 2002-01-01)
 *
 * Users: admin, reader (everything), oneLib (library A only), ageExcluded (EXCLUDE 16), noDownload (no roles).
 */
export interface World {
  s: TestServer;
  dir: string;
  libA: string;
  libB: string;
  series: Record<'alpha' | 'mature' | 'charlie' | 'bravo', string>;
  books: Record<'a1' | 'a2' | 'm1' | 'c1' | 'b1' | 'b2', string>;
  users: Record<'admin' | 'reader' | 'oneLib' | 'ageExcluded' | 'noDownload', string>;
  /** Every event published since the world was built (or since the last `events.length = 0`). */
  events: QuireEvent[];
  as(who: string, path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export async function buildWorld(): Promise<World> {
  const s = await startServer();
  const admin = (await claim(s)).authorization;
  const db = s.app.deps.db;
  const dir = await mkdtemp(join(tmpdir(), 'quire-collections-'));
  const events: QuireEvent[] = [];
  s.app.deps.events.subscribe((e) => void events.push(e));

  const libA = await makeLibrary(db, { name: 'A', root: join(dir, 'A') });
  const libB = await makeLibrary(db, { name: 'B', root: join(dir, 'B') });
  let seed = 1;
  const series = async (
    libraryId: string,
    libraryFolder: string,
    title: string,
    books: { name: string; releaseDate: string | null }[],
    over: { ageRating?: number } = {},
  ) => {
    const paths: string[] = [];
    for (const b of books) {
      const path = join(dir, libraryFolder, title, `${b.name}.cbz`);
      await writeCbz(path, { pages: 1, seed: seed++ * 3 });
      paths.push(path);
    }
    const made = await makeSeriesWithBooks(db, libraryId, paths, { title, ...over });
    for (const [i, id] of made.bookIds.entries()) {
      await db
        .updateTable('book_metadata')
        .set({ release_date: books[i]!.releaseDate })
        .where('book_id', '=', id)
        .execute();
      await s.app.deps.books.analyzer.analyzeAndPersist(id);
      expect(await s.app.deps.thumbnails.generateForBook(id)).not.toBeNull();
    }
    return made;
  };
  const alpha = await series(libA, 'A', 'Alpha', [
    { name: 'a1', releaseDate: '2001-05-01' },
    { name: 'a2', releaseDate: '1999-01-01' },
  ]);
  const mature = await series(libA, 'A', 'Mature', [{ name: 'm1', releaseDate: '2000-01-01' }], { ageRating: 16 });
  const charlie = await series(libA, 'A', 'Charlie', [{ name: 'c1', releaseDate: null }]);
  const bravo = await series(libB, 'B', 'Bravo', [
    { name: 'b1', releaseDate: '2000-06-01' },
    { name: 'b2', releaseDate: '2002-01-01' },
  ]);

  const user = async (key: string, body: Record<string, unknown>) => {
    const email = `${key.toLowerCase()}@example.org`;
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: { email, password: 'reader-secret', ...body },
    });
    expect(res.status).toBe(201);
    return basic(email, 'reader-secret');
  };

  return {
    s,
    dir,
    libA,
    libB,
    series: { alpha: alpha.seriesId, mature: mature.seriesId, charlie: charlie.seriesId, bravo: bravo.seriesId },
    books: {
      a1: alpha.bookIds[0]!,
      a2: alpha.bookIds[1]!,
      m1: mature.bookIds[0]!,
      c1: charlie.bookIds[0]!,
      b1: bravo.bookIds[0]!,
      b2: bravo.bookIds[1]!,
    },
    users: {
      admin,
      reader: await user('reader', {}),
      oneLib: await user('oneLib', { sharedLibraries: { all: false, libraryIds: [libA] } }),
      ageExcluded: await user('ageExcluded', { ageRestriction: { age: 16, restriction: 'EXCLUDE' } }),
      noDownload: await user('noDownload', { roles: [] }),
    },
    events,
    as: (who, path, init = {}) => s.fetch(path, { ...init, headers: { authorization: who, ...(init.headers ?? {}) } }),
    close: async () => {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The body of a response expected to have this status. */
export async function json<T = Record<string, unknown>>(res: Response | Promise<Response>, status = 200): Promise<T> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Status of a response whose body is not needed (read and dropped, so the connection is freed). */
export async function status(res: Response | Promise<Response>): Promise<number> {
  const r = await res;
  await r.arrayBuffer();
  return r.status;
}

/** The RGB colour of one pixel of an image. */
export async function pixel(image: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

/** Colours that differ by at most `tolerance` per channel (JPEG is lossy). */
export function expectColour(actual: readonly number[], expected: readonly number[], tolerance = 24): void {
  for (let i = 0; i < 3; i++)
    expect(Math.abs(actual[i]! - expected[i]!), `${actual} vs ${expected}`).toBeLessThan(tolerance);
}

/** A multipart body with `file` (and `selected` when given). */
export function posterForm(bytes: Uint8Array, type = 'image/png', selected?: boolean): FormData {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), 'poster');
  if (selected !== undefined) form.append('selected', String(selected));
  return form;
}

/** Polls `check` until it holds (short steps, capped). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

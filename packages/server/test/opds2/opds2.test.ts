import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, claim, startServer, type TestServer } from '../support/server.js';
import { makeLibrary, makeSeriesWithBooks } from '../support/factories.js';
import { fixture } from '../support/fixtures.js';
import { writeCbz } from '../support/library-builder.js';
import { meaning, readAuthenticationDocument, readFeed, readManifest } from './readers.js';

/**
 * OPDS 2 (api.md §7.2) as an app sees it: every feed and manifest reached from the catalog is read with the parsers
 * of Readium's apps (readers.ts) and every link followed; content restrictions, roles and the 401 challenge.
 *
 * Library "Comics": Alpha (3 CBZ, publisher Marvel, a tagged book), Bravo (1 CBZ), Hidden (1 CBZ, age 18,
 * publisher Secret Press). Library "Books": Novels (an image-only EPUB, an EPUB without a cover image, a PDF). The reader excludes
 * 16 and over, so Hidden is never his to see.
 */
let s: TestServer;
let dir: string;
let admin: string;
let reader: string;
let noRoles: string;
const ids = {
  comics: '',
  books: '',
  alpha: '',
  bravo: '',
  hidden: '',
  novels: '',
  alphaBooks: [] as string[],
  hiddenBook: '',
  epub: '',
  coverlessEpub: '',
  pdf: '',
  collection: '',
  readList: '',
};

async function call(authorization: string, method: string, path: string, json?: unknown) {
  const res = await s.fetch(path, { method, headers: { authorization }, ...(json !== undefined ? { json } : {}) });
  return { status: res.status, body: res.status === 200 ? ((await res.json()) as Record<string, unknown>) : null };
}

beforeAll(async () => {
  s = await startServer();
  admin = (await claim(s)).authorization;
  dir = await mkdtemp(join(tmpdir(), 'quire-opds2-'));
  const db = s.app.deps.db;
  const cbz = async (path: string, seed: number) => {
    await writeCbz(join(dir, path), { pages: 3, seed });
    return join(dir, path);
  };
  ids.comics = await makeLibrary(db, { name: 'Comics', root: join(dir, 'Comics') });
  const alpha = await makeSeriesWithBooks(
    db,
    ids.comics,
    [
      await cbz('Comics/Alpha/Alpha 1.cbz', 1),
      await cbz('Comics/Alpha/Alpha 2.cbz', 2),
      await cbz('Comics/Alpha/Alpha 3.cbz', 3),
    ],
    { title: 'Alpha', ageRating: 12 },
  );
  const bravo = await makeSeriesWithBooks(db, ids.comics, [await cbz('Comics/Bravo/Bravo 1.cbz', 4)], {
    title: 'Bravo',
  });
  const hidden = await makeSeriesWithBooks(db, ids.comics, [await cbz('Comics/Hidden/Hidden 1.cbz', 5)], {
    title: 'Hidden',
    ageRating: 18,
  });
  ids.books = await makeLibrary(db, { name: 'Books', root: join(dir, 'Books') });
  await mkdir(join(dir, 'Books', 'Novels'), { recursive: true });
  const novelFiles = ['epub/epub3.epub', 'epub/pub-cmt-webp.epub', 'pdf/ccitt.pdf'];
  const copies: string[] = [];
  for (const f of novelFiles) {
    const to = join(dir, 'Books', 'Novels', f.split('/')[1]!);
    await copyFile(fixture(f), to);
    copies.push(to);
  }
  const novels = await makeSeriesWithBooks(db, ids.books, copies, { title: 'Novels' });
  Object.assign(ids, {
    alpha: alpha.seriesId,
    bravo: bravo.seriesId,
    hidden: hidden.seriesId,
    novels: novels.seriesId,
    alphaBooks: alpha.bookIds,
    hiddenBook: hidden.bookIds[0]!,
    epub: novels.bookIds[0]!,
    coverlessEpub: novels.bookIds[1]!,
    pdf: novels.bookIds[2]!,
  });
  for (const id of [...alpha.bookIds, ...bravo.bookIds, ...hidden.bookIds, ...novels.bookIds]) {
    await s.app.deps.books.analyzer.analyzeAndPersist(id);
    await s.app.deps.thumbnails.generateForBook(id);
  }
  await db
    .updateTable('series_metadata')
    .set({ publisher: 'Marvel' })
    .where('series_id', '=', alpha.seriesId)
    .execute();
  await db
    .updateTable('series_metadata')
    .set({ publisher: 'Secret Press' })
    .where('series_id', '=', hidden.seriesId)
    .execute();
  await db.insertInto('book_metadata_tag').values({ book_id: alpha.bookIds[1]!, tag: 'noir' }).execute();
  await db.insertInto('book_metadata_tag').values({ book_id: hidden.bookIds[0]!, tag: 'secret' }).execute();

  const created = async (path: string, json: unknown) => {
    const res = await call(admin, 'POST', path, json);
    expect(res.status, path).toBe(200);
    return res.body!.id as string;
  };
  ids.collection = await created('/api/v1/collections', {
    name: 'Favourites',
    ordered: true,
    seriesIds: [ids.hidden, ids.bravo, ids.alpha],
  });
  ids.readList = await created('/api/v1/readlists', {
    name: 'Reading order',
    ordered: true,
    bookIds: [ids.hiddenBook, ids.epub, alpha.bookIds[0]!],
  });
  const user = async (email: string, body: Record<string, unknown>) => {
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: { email, password: 'secret-pw', ...body },
    });
    expect(res.status).toBe(201);
    return basic(email, 'secret-pw');
  };
  reader = await user('reader@example.org', { ageRestriction: { age: 16, restriction: 'EXCLUDE' } });
  noRoles = await user('browser@example.org', { roles: [] });
  // The reader finished Alpha 1 (On Deck: Alpha 2 is next) and is in the middle of epub3 (Keep Reading).
  for (const [book, body] of [
    [alpha.bookIds[0]!, { completed: true }],
    [novels.bookIds[0]!, { page: 1 }],
  ] as const) {
    const res = await s.fetch(`/api/v1/books/${book}/read-progress`, {
      method: 'PATCH',
      headers: { authorization: reader },
      json: body,
    });
    expect(res.status).toBe(204);
  }
}, 120_000);

afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

const FEED = 'application/opds+json';
const MANIFESTS = new Set(['application/webpub+json', 'application/divina+json']);

interface Link {
  title?: string;
  href: string;
  type?: string;
  rel?: string;
  templated?: boolean;
  alternate?: Link[];
  children?: Link[];
  properties?: { authenticate?: { href: string; type: string } };
}

interface Metadata {
  title: string;
  numberOfItems?: number;
  belongsTo: { series: { links: Link[] }[] };
}
interface Publication {
  metadata: Metadata;
  links: Link[];
  images: Link[];
  readingOrder: Link[];
  resources: Link[];
}
interface Group {
  metadata: Metadata;
  links: Link[];
  navigation: (Link & { title: string })[];
  publications: Publication[];
}
/** An OPDS 2 feed as the tests read it (what they look at is always there). */
interface FeedJson extends Group {
  groups: Group[];
  facets: { metadata: Metadata; links: Link[] }[];
}

/** Every link of a feed: its own, navigation, facets, groups and their publications' links and images. */
function linksOfFeed(feed: Record<string, unknown>): Link[] {
  const publicationLinks = (ps: unknown) =>
    ((ps as { links: Link[]; images: Link[] }[] | undefined) ?? []).flatMap((p) => [...p.links, ...p.images]);
  const groups = (feed.groups as Record<string, unknown>[] | undefined) ?? [];
  const facets = (feed.facets as { links: Link[] }[] | undefined) ?? [];
  return [
    ...((feed.links as Link[] | undefined) ?? []),
    ...((feed.navigation as Link[] | undefined) ?? []),
    ...facets.flatMap((f) => f.links),
    ...groups.flatMap((g) => [
      ...((g.links as Link[] | undefined) ?? []),
      ...((g.navigation as Link[] | undefined) ?? []),
      ...publicationLinks(g.publications),
    ]),
    ...publicationLinks(feed.publications),
  ];
}

/** Every link of a manifest, the reading order's alternates and the table of contents' children included. */
function linksOfManifest(m: Record<string, unknown>): Link[] {
  const all = (ls: Link[]): Link[] => ls.flatMap((l) => [l, ...all(l.alternate ?? []), ...all(l.children ?? [])]);
  const lists = ['links', 'images', 'readingOrder', 'resources'] as const;
  return all(lists.flatMap((k) => (m[k] as Link[] | undefined) ?? [])).map((l) => ({
    ...l,
    // A table-of-contents entry points into a resource: the resource is what is fetched.
    href: l.href.split('#')[0]!,
  }));
}

/** Whether the book of a `/opds/v2/books/{id}/thumbnail` URL has any poster, as the REST API lists them. */
async function hasPoster(thumbnailUrl: string): Promise<boolean> {
  const id = /\/books\/([^/]+)\/thumbnail$/.exec(thumbnailUrl)![1]!;
  const res = await s.fetch(`/api/v1/books/${id}/thumbnails`, { headers: { authorization: admin } });
  return ((await res.json()) as unknown[]).length > 0;
}

/**
 * Follows every link reachable from the catalog as `authorization`, the way an app browses: each answer must be
 * 200 with the type the link declared, each feed and manifest must read the same through Readium's parsers.
 */
async function crawl(authorization: string) {
  const seen = new Map<string, { type: string; body: string }>();
  const queue: Link[] = [{ href: `${s.url}/opds/v2/catalog`, type: FEED }];
  const problems: string[] = [];
  while (queue.length) {
    const link = queue.shift()!;
    const href = link.templated ? link.href.replace('{?query}', '?query=a') : link.href;
    if (seen.has(href)) continue;
    expect(href.startsWith(`${s.url}/`), href).toBe(true);
    const res = await fetch(href, { headers: { authorization } });
    const type = res.headers.get('content-type') ?? '';
    const body = Buffer.from(await res.arrayBuffer());
    seen.set(href, { type, body: body.toString('latin1') });
    // A book never read has no progression: 204, as the REST API answers (api.md §1.6).
    if (link.rel === 'http://www.cantook.com/api/progression' && res.status === 204) continue;
    // A book whose cover could not be made has no poster: its cover link is a 404, as in the REST API.
    if (href.endsWith('/thumbnail') && res.status === 404 && !(await hasPoster(href))) continue;
    if (res.status !== 200) {
      problems.push(`${href}: ${res.status}`);
      continue;
    }
    if (link.type && !type.startsWith(link.type)) problems.push(`${href}: ${type}, declared ${link.type}`);
    if (type.startsWith(FEED)) {
      const feed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      expect(meaning(readFeed(feed)), href).toEqual(meaning(feed));
      queue.push(...linksOfFeed(feed));
    } else if (MANIFESTS.has(type.split(';')[0]!)) {
      const manifest = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const { written, sent } = readManifest(manifest);
      expect(meaning(written), href).toEqual(meaning(sent));
      queue.push(...linksOfManifest(manifest));
    }
  }
  expect(problems).toEqual([]);
  return seen;
}

describe('an OPDS 2 app browsing the catalog', () => {
  let seen: Map<string, { type: string; body: string }>;
  beforeAll(async () => {
    seen = await crawl(reader);
  }, 120_000);

  it('reaches every feed, manifest, page, resource and file, each read the same by the parsers of Readium apps', () => {
    const paths = [...seen.keys()].map((u) => u.slice(s.url.length));
    for (const expected of [
      '/opds/v2/catalog',
      '/opds/v2/libraries',
      `/opds/v2/libraries/${ids.comics}`,
      '/opds/v2/libraries/browse',
      `/opds/v2/libraries/${ids.comics}/browse?publisher=Marvel`,
      '/opds/v2/libraries/collections',
      '/opds/v2/libraries/readlists',
      '/opds/v2/libraries/keep-reading',
      '/opds/v2/libraries/on-deck',
      '/opds/v2/libraries/books/latest',
      '/opds/v2/libraries/series/latest',
      `/opds/v2/collections/${ids.collection}`,
      `/opds/v2/readlists/${ids.readList}`,
      `/opds/v2/series/${ids.alpha}`,
      `/opds/v2/series/${ids.alpha}?tag=noir`,
      '/opds/v2/search?query=a',
      `/opds/v2/books/${ids.alphaBooks[0]}/manifest`,
      `/opds/v2/books/${ids.alphaBooks[0]}/pages/3?contentNegotiation=false`,
      `/opds/v2/books/${ids.alphaBooks[0]}/pages/3?contentNegotiation=false&convert=jpeg`,
      `/opds/v2/books/${ids.alphaBooks[0]}/file`,
      `/opds/v2/books/${ids.alphaBooks[0]}/thumbnail`,
      `/opds/v2/books/${ids.epub}/manifest`,
      `/opds/v2/books/${ids.epub}/manifest/divina`,
      `/opds/v2/books/${ids.pdf}/manifest`,
      `/opds/v2/books/${ids.pdf}/manifest/divina`,
      `/opds/v2/books/${ids.pdf}/pages/1/raw`,
    ]) {
      expect(paths, expected).toContain(expected);
    }
    expect(paths.some((p) => p.startsWith(`/opds/v2/books/${ids.epub}/resource/`))).toBe(true);
    expect(paths.some((p) => p.startsWith('/api/'))).toBe(false);
  });

  it('never shows the hidden series: no feed, facet, search, count or cover names it', () => {
    for (const [url, { type, body }] of seen) {
      expect(url).not.toContain(ids.hidden);
      expect(url).not.toContain(ids.hiddenBook);
      expect(url).not.toContain('Secret');
      expect(url).not.toContain('secret');
      if (type.includes('json')) {
        expect(body, url).not.toContain('Hidden');
        expect(body, url).not.toContain('Secret Press');
      }
    }
  });
});

describe('feeds', () => {
  const feed = async (path: string, authorization = reader) => {
    const res = await s.fetch(path, { headers: { authorization } });
    expect(res.status, path).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/opds\+json/);
    return (await res.json()) as FeedJson;
  };

  it('count only what the caller may see, and page in 0-based pages with 1-based currentPage', async () => {
    const first = await feed(`/opds/v2/libraries/${ids.comics}/browse?size=1`);
    expect(first.metadata).toMatchObject({ title: 'Comics', itemsPerPage: 1, currentPage: 1, numberOfItems: 2 });
    expect(first.groups[0]!.navigation.map((l: Link) => l.title)).toEqual(['Alpha']);
    const next = first.links.find((l: Link) => l.rel === 'next');
    expect(first.links.find((l: Link) => l.rel === 'previous')).toBeUndefined();
    const second = await feed(next!.href.slice(s.url.length));
    expect(second.metadata).toMatchObject({ currentPage: 2, numberOfItems: 2 });
    expect(second.groups[0]!.navigation.map((l: Link) => l.title)).toEqual(['Bravo']);
    expect(second.links.find((l: Link) => l.rel === 'next')).toBeUndefined();
    expect(second.links.find((l: Link) => l.rel === 'previous')!.href).toContain('page=0');
    // The administrator sees the third series of the library, and its publisher.
    const all = await feed(`/opds/v2/libraries/${ids.comics}/browse`, admin);
    expect(all.metadata.numberOfItems).toBe(3);
    expect(all.groups[1]!.navigation.map((l: Link) => l.title)).toEqual(['Marvel', 'Secret Press']);
    const collection = await feed(`/opds/v2/collections/${ids.collection}`);
    expect(collection.navigation.map((l: Link) => l.title)).toEqual(['Bravo', 'Alpha']);
    expect(collection.metadata.numberOfItems).toBe(2);
    const readList = await feed(`/opds/v2/readlists/${ids.readList}`);
    expect(readList.publications.map((p: Publication) => p.metadata.title)).toEqual(['epub3', 'Alpha 1']);
  });

  it('recommend what the reader is reading and what comes next', async () => {
    const catalog = await feed('/opds/v2/catalog');
    const groups = Object.fromEntries(catalog.groups.map((g: Group) => [g.metadata.title, g]));
    expect(Object.keys(groups)).toEqual(['Libraries', 'Keep Reading', 'On Deck', 'Latest Books', 'Latest Series']);
    expect(groups['Keep Reading']!.publications.map((p: Publication) => p.metadata.title)).toEqual(['epub3']);
    expect(groups['On Deck']!.publications.map((p: Publication) => p.metadata.title)).toEqual(['Alpha 2']);
    expect(groups['Latest Series']!.metadata.numberOfItems).toBe(3);
    expect(catalog.navigation.map((l: Link & { title: string }) => l.title)).toEqual([
      'Recommended',
      'Browse',
      'Collections',
      'Read lists',
    ]);
    const books = await feed(`/opds/v2/libraries/${ids.books}`);
    expect(books.metadata.title).toBe('Books - Recommended');
    expect(books.groups.map((g: Group) => g.metadata.title)).toEqual(['Keep Reading', 'Latest Books', 'Latest Series']);
  });

  it('give each publication its manifest, file, progression and cover, each saying how to authenticate', async () => {
    const series = await feed(`/opds/v2/series/${ids.alpha}`);
    const publication = series.publications[0]!;
    const auth = { href: `${s.url}/opds/v2/auth`, type: 'application/opds-authentication+json' };
    expect(publication.links).toEqual([
      {
        rel: 'self',
        href: `${s.url}/opds/v2/books/${ids.alphaBooks[0]}/manifest`,
        type: 'application/divina+json',
        properties: { authenticate: auth },
      },
      {
        rel: 'http://opds-spec.org/acquisition',
        href: `${s.url}/opds/v2/books/${ids.alphaBooks[0]}/file`,
        type: 'application/vnd.comicbook+zip',
        properties: { authenticate: auth },
      },
      {
        rel: 'http://www.cantook.com/api/progression',
        href: `${s.url}/opds/v2/books/${ids.alphaBooks[0]}/progression`,
        type: 'application/vnd.readium.progression+json',
        properties: { authenticate: auth },
      },
    ]);
    expect(publication.images).toEqual([
      {
        href: `${s.url}/opds/v2/books/${ids.alphaBooks[0]}/thumbnail`,
        type: 'image/jpeg',
        properties: { authenticate: auth },
      },
    ]);
    expect(publication.metadata.belongsTo.series[0]!.links[0]!.href).toBe(`${s.url}/opds/v2/series/${ids.alpha}`);
    expect(series.facets).toEqual([
      {
        metadata: { title: 'Tag' },
        links: [{ title: 'noir', href: `${s.url}/opds/v2/series/${ids.alpha}?tag=noir`, type: FEED }],
      },
    ]);
    const tagged = await feed(`/opds/v2/series/${ids.alpha}?tag=noir`);
    expect(tagged.publications.map((p: Publication) => p.metadata.title)).toEqual(['Alpha 2']);
    expect(tagged.facets[0]!.links[0]!.rel).toBe('self');
  });

  it('search series, books, collections and read lists by every word of the title', async () => {
    const found = await feed('/opds/v2/search?query=alp%203');
    expect(found.groups.map((g: Group) => g.metadata.title)).toEqual(['Books']);
    expect(found.groups[0]!.publications.map((p: Publication) => p.metadata.title)).toEqual(['Alpha 3']);
    const lists = await feed('/opds/v2/search?query=favour');
    expect(lists.groups.map((g: Group) => g.metadata.title)).toEqual(['Collections']);
    const hidden = await feed('/opds/v2/search?query=hidden');
    expect(hidden.groups).toBeUndefined();
    const shown = await feed('/opds/v2/search?query=hidden', admin);
    expect(shown.groups.map((g: Group) => g.metadata.title)).toEqual(['Series', 'Books']);
  });
});

describe('manifests under /opds/v2', () => {
  it('are the REST API manifests with OPDS links, typed as the feed declared', async () => {
    const opds = await call(reader, 'GET', `/opds/v2/books/${ids.epub}/manifest`);
    const rest = await call(reader, 'GET', `/api/v1/books/${ids.epub}/manifest`);
    const m = opds.body as unknown as Publication;
    expect(m.readingOrder.length).toBeGreaterThan(0);
    expect(m.readingOrder.length).toBe((rest.body as unknown as Publication).readingOrder.length);
    for (const l of m.readingOrder) {
      expect(l.href).toMatch(new RegExp(`^${s.url}/opds/v2/books/${ids.epub}/resource/`));
      expect(l.properties?.authenticate).toBeUndefined();
    }
    expect(m.links.every((l: Link) => l.properties?.authenticate)).toBe(true);
    expect(m.resources[0]).toMatchObject({ href: `${s.url}/opds/v2/books/${ids.epub}/thumbnail` });
    expect(m.resources[0]!.properties?.authenticate).toBeDefined();
    const restLinks = (rest.body as unknown as Publication).links;
    expect(
      restLinks.some((l) => l.properties?.authenticate || l.rel === 'http://www.cantook.com/api/progression'),
    ).toBe(false);
    expect(JSON.stringify(rest.body)).not.toContain('/opds/v2');
    const { parsed } = readManifest(m as unknown as Record<string, unknown>);
    expect(parsed.readingOrder.items.length).toBe(m.readingOrder.length);
  });

  it('carry the reading position both ways', async () => {
    const book = ids.alphaBooks[2]!;
    const path = `/opds/v2/books/${book}/progression`;
    const body = {
      modified: new Date().toISOString(),
      device: { id: 'thorium', name: 'Thorium' },
      locator: { href: `${s.url}/opds/v2/books/${book}/pages/2`, type: 'image/png', locations: { position: 2 } },
    };
    const put = await s.fetch(path, {
      method: 'PUT',
      headers: { authorization: reader, 'content-type': 'application/vnd.readium.progression+json' },
      body: JSON.stringify(body),
    });
    expect(put.status).toBe(204);
    const got = await s.fetch(`/api/v1/books/${book}`, { headers: { authorization: reader } });
    expect(((await got.json()) as { readProgress: unknown }).readProgress).toMatchObject({
      page: 2,
      completed: false,
      deviceName: 'Thorium',
    });
    const back = await s.fetch(path, { headers: { authorization: reader } });
    expect(back.status).toBe(200);
    expect(back.headers.get('content-type')).toMatch(/^application\/vnd\.readium\.progression\+json/);
    expect(((await back.json()) as { locator: { locations: { position: number } } }).locator.locations.position).toBe(
      2,
    );
  });
});

describe('access', () => {
  it('answers a request without credentials with the authentication document', async () => {
    for (const headers of [{}, { authorization: basic('reader@example.org', 'wrong') }] as Record<string, string>[]) {
      const res = await s.fetch('/opds/v2/catalog', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Realm"');
      expect(res.headers.get('content-type')).toMatch(/^application\/opds-authentication\+json/);
      expect(res.headers.get('link')).toBe(
        `<${s.url}/opds/v2/auth>; rel="http://opds-spec.org/auth/document"; type="application/opds-authentication+json"`,
      );
      const doc = (await res.json()) as Record<string, unknown>;
      expect(meaning(readAuthenticationDocument(doc))).toEqual(meaning(doc));
      expect(doc).toMatchObject({
        authentication: [{ type: 'http://opds-spec.org/auth/basic', labels: { login: 'Email', password: 'Password' } }],
        id: `${s.url}/opds/v2/auth`,
      });
    }
    const pub = await s.fetch('/opds/v2/auth');
    expect(pub.status).toBe(200);
    expect(pub.headers.get('content-type')).toMatch(/^application\/opds-authentication\+json/);
  });

  it("takes the server's API keys", async () => {
    const key = await call(reader, 'POST', '/api/v2/users/me/api-keys', { comment: 'Thorium' });
    const res = await s.fetch('/opds/v2/catalog', { headers: { 'x-api-key': key.body!.key as string } });
    expect(res.status).toBe(200);
  });

  it('lets pages and files through only with PAGE_STREAMING and FILE_DOWNLOAD', async () => {
    const book = ids.alphaBooks[0]!;
    for (const [path, withRole] of [
      [`/opds/v2/books/${book}/pages/1`, 200],
      [`/opds/v2/books/${ids.pdf}/pages/1/raw`, 200],
      [`/opds/v2/books/${book}/file`, 200],
      [`/opds/v2/books/${book}/file/Alpha%201.cbz`, 200],
    ] as const) {
      expect((await s.fetch(path, { headers: { authorization: reader } })).status, path).toBe(withRole);
      expect((await s.fetch(path, { headers: { authorization: noRoles } })).status, path).toBe(403);
    }
    expect((await s.fetch(`/opds/v2/books/${book}/thumbnail`, { headers: { authorization: noRoles } })).status).toBe(
      200,
    );
  });

  it('refuses what the restrictions hide, by id: series, books, covers, pages, manifests; a library not shared', async () => {
    for (const path of [
      `/opds/v2/series/${ids.hidden}`,
      `/opds/v2/books/${ids.hiddenBook}/manifest`,
      `/opds/v2/books/${ids.hiddenBook}/thumbnail`,
      `/opds/v2/books/${ids.hiddenBook}/pages/1`,
      `/opds/v2/books/${ids.hiddenBook}/file`,
      `/opds/v2/books/${ids.hiddenBook}/progression`,
    ]) {
      expect((await s.fetch(path, { headers: { authorization: reader } })).status, path).toBe(403);
    }
    for (const path of ['/opds/v2/series/NOPE', '/opds/v2/libraries/NOPE', '/opds/v2/collections/NOPE']) {
      expect((await s.fetch(path, { headers: { authorization: reader } })).status, path).toBe(404);
    }
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { authorization: admin },
      json: {
        email: 'books@example.org',
        password: 'secret-pw',
        sharedLibraries: { all: false, libraryIds: [ids.books] },
      },
    });
    expect(res.status).toBe(201);
    const booksOnly = basic('books@example.org', 'secret-pw');
    expect((await s.fetch(`/opds/v2/libraries/${ids.comics}`, { headers: { authorization: booksOnly } })).status).toBe(
      403,
    );
    const catalog = (await (
      await s.fetch('/opds/v2/catalog', { headers: { authorization: booksOnly } })
    ).json()) as FeedJson;
    expect(catalog.groups[0]!.navigation.map((l: Link & { title: string }) => l.title)).toEqual(['Books']);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOK_FIELDS, SERIES_FIELDS } from '../../src/db/search/fields.js';
import { toMatchExpression, toMatchExpressions } from '../../src/db/search/match.js';
import { parse } from '../../src/db/search/query.js';
import { fillBookTitles, fillSeriesTitles } from '../../src/db/search/sqlite-fts.js';
import { documentField, needles } from '../../src/db/search/text.js';
import { fold, sortKey } from '../../src/domain/text.js';
import { bookKeys, buildFixture, client, seriesKeys, type Fixture } from './support.js';

/**
 * Full-text search (api.md §5.2, engine.md §14): Komga's matching rules — partial words of 3+ characters, whole
 * short words, case and accents ignored, CJK bigrams, Lucene syntax, AND by default — over SQLite FTS5.
 */

describe('text normalisation', () => {
  it('folds case, accents and ligatures; keeps Hangul composed', () => {
    expect(fold('Élodie ÆON Straße Łódź')).toBe('elodie aeon strasse lodz');
    expect(fold('한국어')).toBe('한국어');
    expect(sortKey('  The   Dark\tKnight ')).toBe('the dark knight');
  });

  it('lays out documents as spaced words, with CJK bigrams', () => {
    expect(documentField(['X-Men: Days', null, 'of  Future', 'RIGHT_TO_LEFT'])).toBe(
      ' x men days of future right_to_left ',
    );
    expect(documentField(['進撃の巨人'])).toBe(' 進撃の巨人 進撃 撃の の巨 巨人 ');
    expect(needles('bat')).toEqual(['bat']);
    expect(needles('x')).toEqual([' x ']);
    expect(needles('巨人')).toEqual([' 巨人 ']);
    expect(needles('進撃の')).toEqual([' 進撃 ', ' 撃の ']);
  });
});

describe('query language', () => {
  it('parses Lucene classic syntax, or refuses it', () => {
    expect(parse('dark knight')).toEqual({
      kind: 'and',
      items: [
        { kind: 'term', field: null, text: 'dark', prefix: false },
        { kind: 'term', field: null, text: 'knight', prefix: false },
      ],
    });
    expect(parse('a OR b -c')).toMatchObject({ kind: 'or', items: [{ kind: 'term' }, { kind: 'and' }] });
    expect(parse('title:(x y)')).toMatchObject({ kind: 'and', items: [{ field: 'title' }, { field: 'title' }] });
    expect(parse('release_date:[1990 TO 1999}')).toMatchObject({
      kind: 'range',
      fromInclusive: true,
      toInclusive: false,
    });
    expect(parse('*:*')).toEqual({ kind: 'all' });
    expect(parse('bat*^2')).toEqual({ kind: 'term', field: null, text: 'bat', prefix: true });
    for (const bad of ['(x', 'x)', '"x', 'title:', '*x', 'x AND', '[1 TO]']) expect(parse(bad), bad).toBeNull();
  });

  it('compiles to FTS5 over the default or named columns', () => {
    expect(toMatchExpression('foo:x', SERIES_FIELDS)).toBeNull();
    expect(toMatchExpression('tag:ab', SERIES_FIELDS)).toBe('{series_tag book_tag} : " ab "');
    expect(toMatchExpression('-x', SERIES_FIELDS)).toBe(
      '(everything : "all" NOT ({title author series_tag book_tag publisher summary} : " x "))',
    );
    expect(toMatchExpression('age_rating:[5 TO 7}', SERIES_FIELDS)).toBe('(age_rating : " 5 " OR age_rating : " 6 ")');
  });

  it('says when the title tiers read the title columns alone (the titles’ own table answers them then)', () => {
    const titlesOnly = (q: string) => toMatchExpressions(q, SERIES_FIELDS)?.titlesOnly;
    for (const q of ['crimson knight', 'bat OR titan', '"year one"', 'zomb*', 'title:x bat'])
      expect(titlesOnly(q), q).toBe(true);
    for (const q of ['bat -acrobat', 'bat publisher:marvel', 'bat OR *:*', 'publisher:marvel'])
      expect(titlesOnly(q), q).toBe(false);
    // A book's title columns are its title and its ISBN.
    const bookTitlesOnly = (q: string) => toMatchExpressions(q, BOOK_FIELDS)?.titlesOnly;
    for (const q of ['batman', 'isbn:140120 bat', 'title:bat miller', 'tit*']) expect(bookTitlesOnly(q), q).toBe(true);
    for (const q of ['bat -acrobat', 'bat author:miller', 'bat OR *:*']) expect(bookTitlesOnly(q), q).toBe(false);
  });
});

describe('through the API', () => {
  let f: Fixture;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    f = await buildFixture();
    c = client(f);
  }, 60_000);
  afterAll(() => f.s.close());

  /** Series keys for a search, most relevant first. */
  const series = async (q: string) =>
    seriesKeys(f, await c.seriesPage(f.users.admin, '/api/v1/series/list?unpaged=true', { fullTextSearch: q }));
  const seriesSet = async (q: string) => (await series(q)).sort();
  const books = async (q: string) =>
    bookKeys(f, await c.bookPage(f.users.admin, '/api/v1/books/list?unpaged=true', { fullTextSearch: q })).sort();

  it('matches parts of words of three characters or more, case- and accent-insensitively', async () => {
    expect(await series('bat')).toEqual(['batman', 'acrobat']);
    expect(await series('BATMAN')).toEqual(['batman']);
    expect(await series('elodie')).toEqual(['elodie']);
    expect(await series('ÉTOILES')).toEqual(['elodie']);
    expect(await series('toil')).toEqual(['elodie']);
  });

  it('matches words shorter than three characters whole only', async () => {
    expect(await series('x')).toEqual(['xmen']);
    expect(await series('ba')).toEqual([]);
    expect(await series('et')).toEqual(['elodie']);
  });

  it('matches CJK text through its bigrams', async () => {
    expect(await series('巨人')).toEqual(['titan']);
    expect(await series('進撃の巨人')).toEqual(['titan']);
    expect(await series('巨')).toEqual([]);
  });

  it('searches titles, alternate titles, authors, tags, publisher and summary; ISBN for books', async () => {
    expect(await series('attack')).toEqual(['titan']);
    expect(await series('miller')).toEqual(['batman']);
    expect(await series('noir')).toEqual(['batman']);
    expect(await series('kodansha')).toEqual(['titan']);
    expect(await series('gotham')).toEqual(['batman']);
    expect(await books('9781401207526')).toEqual(['batman/Batman 01']);
    expect(await books('140120')).toEqual(['batman/Batman 01']);
    expect(await books('commissioner')).toEqual(['batman/Batman 03']);
    expect(await books('finale')).toEqual(['batman/Batman 04']);
  });

  it('ranks title matches before summary matches', async () => {
    expect(await series('year')).toEqual(['batman', 'zombie']);
  });

  it('ranks the same on the titles migration 0023 fills in as on those the indexer writes', async () => {
    const queries = ['bat', 'year', 'toil', 'attack', 'titan', '巨人', 'x', 'acrobat'];
    const ranked = async () => {
      const out: string[][] = [];
      for (const q of queries) out.push(await series(q));
      return out;
    };
    const indexed = await ranked();
    await sql`DELETE FROM series_title_fts`.execute(f.db);
    // Without the titles, title matches no longer rank first.
    expect(await series('bat')).not.toEqual(indexed[0]);
    await fillSeriesTitles(f.db);
    expect(await ranked()).toEqual(indexed);
  });

  it('knows Komga’s fields', async () => {
    expect(await seriesSet('writer:miller')).toEqual(['batman']);
    expect(await seriesSet('penciller:miller')).toEqual([]);
    expect(await seriesSet('penciller:lee')).toEqual(['xmen']);
    expect(await seriesSet('tag:titans')).toEqual(['titan']);
    expect(await seriesSet('book_tag:noir')).toEqual(['batman']);
    expect(await seriesSet('series_tag:noir')).toEqual([]);
    expect(await seriesSet('publisher:marvel')).toEqual(['acrobat', 'xmen']);
    expect(await seriesSet('genre:horror')).toEqual(['titan']);
    expect(await seriesSet('status:hiatus')).toEqual(['xmen']);
    expect(await seriesSet('language:fr')).toEqual(['elodie']);
    expect(await seriesSet('reading_direction:right_to_left')).toEqual(['titan']);
    expect(await seriesSet('sharing_label:gore')).toEqual(['titan', 'xmen']);
    expect(await seriesSet('age_rating:[10 TO 16]')).toEqual(['batman', 'titan']);
    expect(await seriesSet('release_date:1987')).toEqual(['batman']);
    expect(await seriesSet('release_date:[2010 TO *]')).toEqual(['acrobat', 'elodie', 'titan', 'zombie']);
    expect(await seriesSet('deleted:true')).toEqual(['zombie']);
    expect(await seriesSet('oneshot:true')).toEqual(['acrobat']);
    expect(await seriesSet('complete:true')).toEqual(['batman']);
    expect(await seriesSet('complete:false')).toEqual(['elodie', 'xmen']);
    expect(await seriesSet('book_count:3')).toEqual(['titan']);
    expect(await seriesSet('total_book_count:10')).toEqual(['elodie']);
    expect(await books('status:error')).toEqual(['batman/Batman 04']);
    // A one-shot book's document carries its series' fields.
    expect(await books('publisher:marvel')).toEqual(['acrobat/acrobat tales']);
  });

  it('reads AND by default, OR, NOT / -, groups, phrases and trailing wildcards', async () => {
    expect(await seriesSet('bat -acrobat')).toEqual(['batman']);
    expect(await seriesSet('-bat')).toEqual(['elodie', 'titan', 'xmen', 'zombie']);
    expect(await seriesSet('NOT bat')).toEqual(['elodie', 'titan', 'xmen', 'zombie']);
    expect(await seriesSet('batman OR titan')).toEqual(['batman', 'titan']);
    expect(await seriesSet('batman titan')).toEqual([]);
    expect(await seriesSet('batman AND titan')).toEqual([]);
    expect(await seriesSet('(batman OR x) AND year')).toEqual(['batman']);
    expect(await seriesSet('"year one"')).toEqual(['batman']);
    expect(await seriesSet('"one year"')).toEqual([]);
    expect(await seriesSet('zomb*')).toEqual(['zombie']);
    // `bad` in Zombie Days' summary starts with "ba" too.
    expect(await seriesSet('ba*')).toEqual(['batman', 'zombie']);
    expect(await seriesSet('*:*')).toHaveLength(6);
  });

  it('matches nothing for a query that does not parse or names an unknown field', async () => {
    for (const q of ['(batman', '"batman', 'title:', '*man', 'foo:bar']) expect(await series(q), q).toEqual([]);
  });

  it('follows changes written by anyone (triggers) and drops deleted entities', async () => {
    const { db } = f;
    await db
      .updateTable('series_metadata')
      .set({ title: 'Circus Wonders' })
      .where('series_id', '=', f.series.acrobat!)
      .execute();
    expect(await series('wonders')).toEqual(['acrobat']);
    // Still found by its sort title, which did not change.
    expect(await series('acrobat')).toEqual(['acrobat']);
    await db
      .updateTable('series_metadata')
      .set({ title_sort: 'Wonders, Circus' })
      .where('series_id', '=', f.series.acrobat!)
      .execute();
    expect(await series('acrobat')).toEqual([]);
    await db
      .insertInto('series_metadata_tag')
      .values({ series_id: f.series.elodie!, tag: 'astronomy', position: 1 })
      .execute();
    expect(await series('astronomy')).toEqual(['elodie']);
    expect(await books('author:lee')).toEqual(['xmen/X-Men 1']);
    await db.deleteFrom('book_metadata_author').where('book_id', '=', f.books['xmen/X-Men 1']!).execute();
    expect(await books('author:lee')).toEqual([]);
    // The sort keys follow too.
    const resorted = seriesKeys(
      f,
      await c.seriesPage(f.users.admin, '/api/v1/series/list?sort=metadata.titleSort', {}),
    );
    expect(resorted.indexOf('acrobat')).toBe(2);
    await db.deleteFrom('series').where('id', '=', f.series.zombie!).execute();
    expect(await series('living')).toEqual([]);
    expect(await books('zombie')).toEqual([]);
  });
});

describe('book search on the book titles’ own table (migration 0025)', () => {
  let f: Fixture;
  let c: ReturnType<typeof client>;
  beforeAll(async () => {
    f = await buildFixture();
    c = client(f);
    // Title words in other fields too, so that a search has hits in the title tiers and in the tier of all fields.
    await f.db
      .updateTable('book_metadata')
      .set({ summary: 'Batman guest stars.' })
      .where('book_id', '=', f.books['xmen/X-Men 2']!)
      .execute();
    await f.db
      .insertInto('book_metadata_tag')
      .values({ book_id: f.books['elodie/Élodie 1']!, position: 0, tag: 'titan' })
      .execute();
  }, 60_000);
  afterAll(() => f.s.close());

  /** Book keys for a search, most relevant first. */
  const books = async (q: string) =>
    bookKeys(f, await c.bookPage(f.users.admin, '/api/v1/books/list?unpaged=true', { fullTextSearch: q }));

  const batmans = ['batman/Batman 01', 'batman/Batman 02', 'batman/Batman 03'];
  const titans = ['titan/Titan 1', 'titan/Titan 2', 'titan/Titan 2.5'];
  const everything = [
    'batman/Batman 04',
    'titan/Titan 1',
    'titan/Titan 2',
    'xmen/X-Men 1',
    'xmen/X-Men 2',
    'elodie/Élodie 1',
    'elodie/Élodie 2',
    'zombie/Zombie 1',
    ...batmans,
    'titan/Titan 2.5',
    'acrobat/acrobat tales',
  ];
  /**
   * What the build before migration 0025 answered (its title tiers read `book_fts`), in its order: title words,
   * ISBNs, prefixes, words in authors, tags or summaries only, negations, `*:*`, fields.
   */
  const before: Record<string, string[]> = {
    bat: [...batmans, 'acrobat/acrobat tales', 'xmen/X-Men 2'],
    batman: [...batmans, 'xmen/X-Men 2'],
    titan: [...titans, 'elodie/Élodie 1'],
    'tit*': [...titans, 'elodie/Élodie 1'],
    'ba*': [...batmans, 'xmen/X-Men 2'],
    'bat*': [...batmans, 'acrobat/acrobat tales', 'xmen/X-Men 2'],
    'acro*': ['acrobat/acrobat tales'],
    miller: batmans,
    noir: ['batman/Batman 01', 'batman/Batman 02'],
    commissioner: ['batman/Batman 03'],
    guest: ['xmen/X-Men 2'],
    '140120': ['batman/Batman 01'],
    '9781401207526': ['batman/Batman 01'],
    x: ['xmen/X-Men 1', 'xmen/X-Men 2'],
    men: ['xmen/X-Men 1', 'xmen/X-Men 2'],
    ÉLODIE: ['elodie/Élodie 1', 'elodie/Élodie 2'],
    'bat -acrobat': [...batmans, 'xmen/X-Men 2'],
    '-titan': [
      'batman/Batman 04',
      'xmen/X-Men 1',
      'xmen/X-Men 2',
      'elodie/Élodie 2',
      'zombie/Zombie 1',
      ...batmans,
      'acrobat/acrobat tales',
    ],
    'NOT bat': [
      'batman/Batman 04',
      'titan/Titan 1',
      'titan/Titan 2',
      'xmen/X-Men 1',
      'elodie/Élodie 1',
      'elodie/Élodie 2',
      'zombie/Zombie 1',
      'titan/Titan 2.5',
    ],
    'batman -miller': ['xmen/X-Men 2'],
    'titan -tag:titan': titans,
    '*:*': everything,
    'bat OR *:*': everything,
    'batman OR titan': [
      'titan/Titan 1',
      'titan/Titan 2',
      ...batmans,
      'titan/Titan 2.5',
      'xmen/X-Men 2',
      'elodie/Élodie 1',
    ],
    'batman OR miller': [...batmans, 'xmen/X-Men 2'],
    '"batman 01"': ['batman/Batman 01'],
    'title:titan': titans,
    'author:miller': batmans,
    'tag:titan': ['elodie/Élodie 1'],
    'isbn:140120': ['batman/Batman 01'],
    'title:bat miller': batmans,
    'batman titan': [],
    zzz: [],
    '(batman': [],
  };
  const ranked = async () => {
    const out: Record<string, string[]> = {};
    for (const q of Object.keys(before)) out[q] = await books(q);
    return out;
  };

  it('finds and ranks the same books as when the title tiers read the whole index', async () => {
    expect(await ranked()).toEqual(before);
  });

  it('ranks the same on the titles migration 0025 fills in as on those the indexer writes', async () => {
    await sql`DELETE FROM book_title_fts`.execute(f.db);
    // Without the titles, title matches no longer rank first: the title tiers read this table.
    expect(await books('bat')).toEqual(['xmen/X-Men 2', ...batmans, 'acrobat/acrobat tales']);
    await fillBookTitles(f.db);
    expect(await ranked()).toEqual(before);
  });

  it('follows a changed title and drops a deleted book', async () => {
    await f.db
      .updateTable('book_metadata')
      .set({ title: 'Titan Returns' })
      .where('book_id', '=', f.books['xmen/X-Men 1']!)
      .execute();
    expect(await books('returns')).toEqual(['xmen/X-Men 1']);
    expect(await books('titan')).toEqual([...titans, 'xmen/X-Men 1', 'elodie/Élodie 1']);
    await f.db.deleteFrom('book').where('id', '=', f.books['titan/Titan 2']!).execute();
    expect(await books('titan')).toEqual(['titan/Titan 1', 'titan/Titan 2.5', 'xmen/X-Men 1', 'elodie/Élodie 1']);
    // Neither table keeps a document of a book that has none any more.
    const count = async (table: string) =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(f.db)).rows[0]!.n);
    expect(await count('book_title_fts')).toBe(await count('book_search'));
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERIES_FIELDS } from '../../src/db/search/fields.js';
import { toMatchExpression, toMatchExpressions } from '../../src/db/search/match.js';
import { parse } from '../../src/db/search/query.js';
import { fillSeriesTitles } from '../../src/db/search/sqlite-fts.js';
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

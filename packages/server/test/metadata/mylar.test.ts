import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMylarSeries, type MylarSeries } from '../../src/metadata/mylar.js';
import { emptySeriesPatch } from '../../src/metadata/patch.js';
import { fixture } from '../support/fixtures.js';

/** Every series.json of the corpus (engine.md §6.6), field by field. */
const EXPECTED: Record<string, { series: Partial<MylarSeries['series']>; skipped: MylarSeries['skipped'] }> = {
  // Legacy `cid` key, age rating Adult, status Continuing.
  'series.json': {
    series: {
      title: 'American Vampire 1976',
      titleSort: 'American Vampire 1976',
      status: 'ONGOING',
      summary: 'Nine issue mini-series, the closing chapter of American Vampire',
      publisher: 'DC Comics',
      ageRating: 18,
      totalBookCount: 9,
    },
    skipped: [],
  },
  'series-gh961.json': {
    series: {
      title: 'Vinland Saga',
      titleSort: 'Vinland Saga',
      status: 'ENDED',
      summary:
        'English translation of Vinland Saga (ヴィンランド・サガ).Vinland Saga is the first series from Kodansha Comics USA to be released in hardcovers, each collection collects and translates two volumes of the original Japanese manga',
      publisher: 'Kodansha Comics USA',
      totalBookCount: 12,
    },
    skipped: [],
  },
  // Komga ignores the whole file; the other keys still count here. Volume 4 → "name (year)".
  'series-missing-status.json': {
    series: {
      title: 'Usagi Yojimbo (2019)',
      titleSort: 'Usagi Yojimbo (2019)',
      publisher: 'IDW Publishing',
      totalBookCount: 20,
    },
    skipped: [{ field: 'status', value: '', reason: 'missing' }],
  },
  'series-missing-year.json': {
    series: {
      title: 'Usagi Yojimbo',
      titleSort: 'Usagi Yojimbo',
      status: 'ENDED',
      publisher: 'IDW Publishing',
      totalBookCount: 20,
    },
    skipped: [{ field: 'year', value: '', reason: 'missing: volume other than 1 without a year to tell it apart' }],
  },
};

describe('Mylar series.json files of the corpus', () => {
  const files = readdirSync(fixture('mylar'));
  it('covers every file', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...files].sort());
  });
  for (const file of files) {
    it(file, () => {
      const result = parseMylarSeries(readFileSync(fixture(`mylar/${file}`), 'utf8'))!;
      const expected = { ...emptySeriesPatch(), ...EXPECTED[file]!.series };
      for (const [field, value] of Object.entries(expected))
        expect({ field, value: result.series[field as keyof typeof result.series] }).toEqual({ field, value });
      expect(result.skipped).toEqual(EXPECTED[file]!.skipped);
    });
  }
});

describe('Mylar mapping rules', () => {
  const json = (metadata: object) => JSON.stringify({ version: '1.0.1', metadata });

  it('maps every age rating of the table and reports unknown ones', () => {
    const ages = { All: 0, '9+': 9, '12+': 12, '15+': 15, '17+': 17, Adult: 18 };
    for (const [value, age] of Object.entries(ages))
      expect(parseMylarSeries(json({ name: 'S', age_rating: value }))!.series.ageRating).toBe(age);
    const r = parseMylarSeries(json({ name: 'S', status: 'Ended', age_rating: 'Teen' }))!;
    expect(r.series.ageRating).toBeNull();
    expect(r.skipped).toEqual([{ field: 'age_rating', value: '"Teen"', reason: 'unknown value' }]);
  });

  it('prefers the formatted description; volume 1 keeps the bare name', () => {
    const r = parseMylarSeries(
      json({ name: 'S', year: 1990, volume: 1, description_text: 'text', description_formatted: 'formatted' }),
    )!;
    expect(r.series).toMatchObject({ title: 'S', summary: 'formatted' });
  });

  it('is null for text that is not a Mylar file', () => {
    expect(parseMylarSeries('not json')).toBeNull();
    expect(parseMylarSeries('{"version":"1"}')).toBeNull();
    expect(parseMylarSeries('[1,2]')).toBeNull();
  });
});

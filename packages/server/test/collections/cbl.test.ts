import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toCblBook, writeCbl } from '../../src/collections/cbl.js';
import type { ExportedBook } from '../../src/domain/collection.js';
import { fixture } from '../support/fixtures.js';

const book = (over: Partial<ExportedBook> = {}): ExportedBook => ({
  id: 'b',
  name: 'b',
  libraryId: 'l',
  url: 'file:///b.cbz',
  seriesTitle: 'Fables',
  number: '1',
  releaseDate: null,
  links: [],
  ...over,
});

describe('ComicRack reading list writer', () => {
  it('writes the layout of the published lists: Name, NumIssues, Books/Book attributes, Database ids, Matchers', () => {
    const xml = writeCbl('Fables', [
      toCblBook(book({ seriesTitle: 'Fables (2002)', number: '1', releaseDate: '2002-07-01' })),
      toCblBook(
        book({
          seriesTitle: "Jupiter's Circle",
          number: '2',
          releaseDate: '2015-06-03',
          links: [
            { label: 'cv', url: 'https://comicvine.gamespot.com/jupiters-circle-2/4000-487863/' },
            { label: 'cv', url: 'https://comicvine.gamespot.com/jupiters-circle/4050-81244/' },
          ],
        }),
      ),
    ]);
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<ReadingList xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
        '  <Name>Fables</Name>',
        '  <NumIssues>2</NumIssues>',
        '  <Books>',
        '    <Book Series="Fables" Number="1" Volume="2002" Year="2002" />',
        '    <Book Series="Jupiter&apos;s Circle" Number="2" Year="2015">',
        '      <Database Name="cv" Series="81244" Issue="487863" />',
        '    </Book>',
        '  </Books>',
        '  <Matchers />',
        '</ReadingList>',
        '',
      ].join('\n'),
    );
  });

  it('matches the shape of a real list from the fixtures', () => {
    const real = readFileSync(fixture("cbl/[Image] [2013-2024] Jupiter's Legacy.cbl"), 'utf8');
    for (const element of ['<ReadingList', '<Name>', '<NumIssues>', '<Books>', '<Book Series=', '<Database Name="cv"'])
      expect(real).toContain(element);
  });

  it('escapes markup and drops characters XML cannot carry', () => {
    const xml = writeCbl('A & B <"x">', [toCblBook(book({ seriesTitle: 'Tom & Jerry\u0001', number: '<1>' }))]);
    expect(xml).toContain('<Name>A &amp; B &lt;&quot;x&quot;&gt;</Name>');
    expect(xml).toContain('<Book Series="Tom &amp; Jerry" Number="&lt;1&gt;" />');
  });

  it('writes an empty list', () => {
    expect(writeCbl('Nothing', [])).toContain('<NumIssues>0</NumIssues>\n  <Books />');
  });
});

import { describe, expect, it } from 'vitest';
import type { WPPublicationDto } from '@quire/api';
import {
  flattenToc,
  currentEntry,
  navigatorPreferences,
  progressionLocator,
  relativeHref,
  resourcePath,
  toPositions,
  toProgression,
  toPublication,
} from './publication';
import { DEFAULT_PREFERENCES } from '../../../app/preferences';

const BASE = 'http://localhost:3000/api/v1/books/b1/resource/';
const link = (href: string, extra: object = {}) => ({ href: `${BASE}${href}`, properties: {}, ...extra });

const manifest = {
  context: 'https://readium.org/webpub-manifest/context.jsonld',
  metadata: {
    title: 'A book',
    author: [],
    translator: [],
    editor: [],
    artist: [],
    illustrator: [],
    letterer: [],
    penciler: [],
    colorist: [],
    inker: [],
    contributor: [],
    publisher: [],
    subject: [],
    rendition: { layout: 'reflowable' },
  },
  links: [{ rel: 'self', href: 'http://localhost:3000/api/v1/books/b1/manifest', properties: {} }],
  images: [],
  readingOrder: [
    link('OEBPS/Text/chapter%201.xhtml', { type: 'application/xhtml+xml' }),
    link('OEBPS/Text/chapter2.xhtml', { type: 'application/xhtml+xml' }),
  ],
  resources: [link('OEBPS/style.css', { type: 'text/css' })],
  toc: [
    link('OEBPS/Text/chapter%201.xhtml', {
      title: 'One',
      children: [link('OEBPS/Text/chapter%201.xhtml#part', { title: 'One, part' })],
    }),
    link('OEBPS/Text/chapter2.xhtml', { title: 'Two' }),
  ],
  landmarks: [],
  pageList: [],
} as unknown as WPPublicationDto;

describe('hrefs', () => {
  it('are made relative to the resource base, wherever the server said it was', () => {
    expect(relativeHref(`${BASE}OEBPS/a.xhtml#x`)).toBe('OEBPS/a.xhtml#x');
    expect(relativeHref('https://proxy.example/quire/api/v1/books/b1/resource/a.xhtml')).toBe('a.xhtml');
    expect(relativeHref('https://example.org/elsewhere')).toBe('https://example.org/elsewhere');
    expect(resourcePath(`${BASE}OEBPS/Text/chapter%201.xhtml#x`)).toBe('OEBPS/Text/chapter 1.xhtml');
  });
});

describe('toPublication', () => {
  const pub = toPublication(manifest, BASE, 'auto');

  it('keeps the reading order relative to the resource base', () => {
    expect(pub.readingOrder.items.map((l) => l.href)).toEqual([
      'OEBPS/Text/chapter%201.xhtml',
      'OEBPS/Text/chapter2.xhtml',
    ]);
    expect(pub.baseURL).toBe(BASE);
  });

  it('applies a reading direction override', () => {
    expect(toPublication(manifest, BASE, 'rtl').metadata.effectiveReadingProgression).toBe('rtl');
  });

  it('matches positions (plain file paths) with the reading order', () => {
    const positions = toPositions(pub, {
      total: 3,
      positions: [
        {
          href: 'OEBPS/Text/chapter 1.xhtml',
          type: 'application/xhtml+xml',
          locations: { position: 1, progression: 0 },
        },
        {
          href: 'OEBPS/Text/chapter 1.xhtml',
          type: 'application/xhtml+xml',
          locations: { position: 2, progression: 0.5 },
        },
        {
          href: 'OEBPS/Text/chapter2.xhtml',
          type: 'application/xhtml+xml',
          locations: { position: 3, progression: 0 },
        },
        { href: 'OEBPS/missing.xhtml', type: 'application/xhtml+xml', locations: { position: 4 } },
      ],
    });
    expect(positions.map((p) => [p.href, p.locations.position])).toEqual([
      ['OEBPS/Text/chapter%201.xhtml', 1],
      ['OEBPS/Text/chapter%201.xhtml', 2],
      ['OEBPS/Text/chapter2.xhtml', 3],
    ]);
  });

  it('saves the file path of the position, and restores it', () => {
    const [second] = toPositions(pub, {
      total: 1,
      positions: [
        {
          href: 'OEBPS/Text/chapter 1.xhtml',
          type: 'application/xhtml+xml',
          locations: { position: 2, progression: 0.5, totalProgression: 0.4 },
        },
      ],
    });
    const saved = toProgression(second!, new Date('2026-03-01T10:00:00Z'));
    expect(saved).toEqual({
      modified: '2026-03-01T10:00:00.000Z',
      device: { id: 'quire-web', name: 'Quire web' },
      locator: {
        href: 'OEBPS/Text/chapter 1.xhtml',
        type: 'application/xhtml+xml',
        locations: { fragments: [], progression: 0.5, position: 2, totalProgression: 0.4 },
      },
    });
    const back = progressionLocator(pub, saved);
    expect(back?.href).toBe('OEBPS/Text/chapter%201.xhtml');
    expect(back?.locations.progression).toBe(0.5);
    expect(progressionLocator(pub, null)).toBeUndefined();
    expect(progressionLocator(pub, { ...saved, locator: { href: '', type: '' } })).toBeUndefined();
  });
});

describe('table of contents', () => {
  it('is flattened with levels, and the entry of the current resource is found', () => {
    const entries = flattenToc(
      manifest.toc.map((l) => ({
        ...l,
        href: relativeHref(l.href!),
        children: (l.children ?? []).map((c) => ({ ...c, href: relativeHref((c as { href: string }).href) })),
      })),
    );
    expect(entries.map((e) => [e.title, e.level])).toEqual([
      ['One', 0],
      ['One, part', 1],
      ['Two', 0],
    ]);
    const order = ['OEBPS/Text/chapter%201.xhtml', 'OEBPS/Text/chapter2.xhtml'];
    expect(currentEntry(entries, order, 'OEBPS/Text/chapter2.xhtml')).toBe(2);
    expect(currentEntry(entries, order, 'OEBPS/Text/chapter%201.xhtml')).toBe(1);
  });
});

describe('navigatorPreferences', () => {
  it('turns the reader settings into Readium preferences', () => {
    const prefs = navigatorPreferences(
      { ...DEFAULT_PREFERENCES.epubreader, appearance: 'night', columns: 'two', fontSize: 120, layout: 'scroll' },
      false,
    );
    expect(prefs).toMatchObject({ backgroundColor: '#000000', columnCount: 2, fontSize: 1.2, scroll: true });
    expect(navigatorPreferences({ ...DEFAULT_PREFERENCES.epubreader, layout: 'scroll' }, true).scroll).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { QuireError } from '../../src/domain/errors.js';
import {
  locatorOf,
  matchPosition,
  parseModified,
  resourceOf,
  type StoredPosition,
} from '../../src/reading/progression.js';

const position = (href: string, position: number, progression: number, total: number): StoredPosition => ({
  href,
  type: 'application/xhtml+xml',
  locations: { position, progression, totalProgression: total },
});

/** Two chapters: a.xhtml with 4 positions, b.xhtml with 1. */
const positions = [
  position('a.xhtml', 1, 0, 0.2),
  position('a.xhtml', 2, 0.25, 0.4),
  position('a.xhtml', 3, 0.5, 0.6),
  position('a.xhtml', 4, 0.75, 0.8),
  position('b.xhtml', 5, 0, 1),
];

const status = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof QuireError ? `${e.status} ${e.message}` : String(e);
  }
  return 'ok';
};

describe('matchPosition (engine.md §13.5)', () => {
  it('takes the position with exactly that progression', () => {
    expect(matchPosition(positions, false, 'a.xhtml', 0.5).locations.position).toBe(3);
  });

  it('takes the last position before the progression', () => {
    expect(matchPosition(positions, false, 'a.xhtml', 0.6).locations.position).toBe(3);
    expect(matchPosition(positions, false, 'a.xhtml', 0.24).locations.position).toBe(1);
  });

  it('takes the last position of the resource past its last position (Komga refuses it)', () => {
    expect(matchPosition(positions, false, 'a.xhtml', 0.99).locations.position).toBe(4);
    expect(matchPosition(positions, false, 'b.xhtml', 0.5).locations.position).toBe(5);
  });

  it('takes the only position of a fixed-layout page whatever the progression', () => {
    expect(matchPosition(positions, true, 'b.xhtml', 0.7).locations.position).toBe(5);
  });

  it('refuses a resource without positions and a progression outside 0..1', () => {
    expect(status(() => matchPosition(positions, false, 'c.xhtml', 0.5))).toBe('400 Invalid progression');
    expect(status(() => matchPosition(positions, false, 'a.xhtml', 1.5))).toBe('400 Invalid progression');
    expect(status(() => matchPosition(positions, false, 'a.xhtml', -0.1))).toBe('400 Invalid progression');
  });
});

describe('resourceOf', () => {
  it('drops the fragment and URL-decodes', () => {
    expect(resourceOf('OEBPS/chapter%201.xhtml#p3')).toBe('OEBPS/chapter 1.xhtml');
    expect(resourceOf('a+b.xhtml')).toBe('a+b.xhtml');
    expect(resourceOf('bad%zz.xhtml')).toBe('bad%zz.xhtml');
  });
});

describe('parseModified', () => {
  it('reads ISO-8601 date-times with an offset', () => {
    expect(parseModified('2024-03-01T10:00:00Z').toISOString()).toBe('2024-03-01T10:00:00.000Z');
    expect(parseModified('2024-03-01T10:00:00.5+02:00').toISOString()).toBe('2024-03-01T08:00:00.500Z');
    expect(parseModified('2024-03-01T10:00:00-0130').toISOString()).toBe('2024-03-01T11:30:00.000Z');
  });

  it('refuses anything else with 400', () => {
    for (const bad of ['yesterday', '2024-03-01', '2024-03-01T10:00:00', '2024-13-01T10:00:00Z'])
      expect(
        status(() => parseModified(bad)),
        bad,
      ).toMatch(/^400 /);
  });
});

describe('locatorOf', () => {
  it('reads back a stored locator without nulls, fragments always present', () => {
    expect(locatorOf(null)).toEqual({ href: '', type: '' });
    expect(
      locatorOf({ href: 'a', type: 't', title: null, locations: { position: 2, progression: null }, koboSpan: 'k' }),
    ).toEqual({ href: 'a', type: 't', locations: { fragments: [], position: 2 }, koboSpan: 'k' });
  });
});

import { describe, expect, it } from 'vitest';
import { buildSpreads, isLandscape, spreadIndexOf, spreadPage, type PageShape, type Spread } from './spreads';

const portrait = (number: number): PageShape => ({ number, width: 800, height: 1200 });
const landscape = (number: number): PageShape => ({ number, width: 1600, height: 1200 });
const unknown = (number: number): PageShape => ({ number, width: null, height: null });

/** A spread as page numbers, 0 for a blank. */
const numbers = (spreads: Spread[]) => spreads.map((s) => s.map((p) => p.number));

describe('isLandscape', () => {
  it('is wider than tall; a square or a page without dimensions is portrait', () => {
    expect(isLandscape(landscape(1))).toBe(true);
    expect(isLandscape(portrait(1))).toBe(false);
    expect(isLandscape({ number: 1, width: 1000, height: 1000 })).toBe(false);
    expect(isLandscape(unknown(1))).toBe(false);
    expect(isLandscape({ number: 1, width: 1000, height: null })).toBe(false);
  });
});

describe('buildSpreads', () => {
  const book = [1, 2, 3, 4, 5, 6].map(portrait);

  it('single: one page per slide', () => {
    expect(numbers(buildSpreads(book, 'single'))).toEqual([[1], [2], [3], [4], [5], [6]]);
  });

  it('double: the cover and the last page stand beside a blank, the pages between face each other', () => {
    expect(numbers(buildSpreads(book, 'double'))).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
      [6, 0],
    ]);
  });

  it('double: an odd page before the last one gets a blank partner', () => {
    expect(numbers(buildSpreads([1, 2, 3, 4, 5].map(portrait), 'double'))).toEqual([
      [0, 1],
      [2, 3],
      [4, 0],
      [5, 0],
    ]);
  });

  it('double: a landscape page stands alone, and the page before it gets a blank', () => {
    const pages = [portrait(1), portrait(2), portrait(3), landscape(4), portrait(5), portrait(6), portrait(7)];
    expect(numbers(buildSpreads(pages, 'double'))).toEqual([[0, 1], [2, 3], [4], [5, 6], [7, 0]]);
    const shifted = [portrait(1), portrait(2), landscape(3), portrait(4), portrait(5), portrait(6)];
    expect(numbers(buildSpreads(shifted, 'double'))).toEqual([[0, 1], [2, 0], [3], [4, 5], [6, 0]]);
  });

  it('double: a landscape cover or last page has no blank', () => {
    const pages = [landscape(1), portrait(2), portrait(3), landscape(4)];
    expect(numbers(buildSpreads(pages, 'double'))).toEqual([[1], [2, 3], [4]]);
  });

  it('double: pages without dimensions pair like portrait pages', () => {
    expect(numbers(buildSpreads([1, 2, 3, 4].map(unknown), 'double'))).toEqual([
      [0, 1],
      [2, 3],
      [4, 0],
    ]);
  });

  it('double: a book of one or two pages', () => {
    expect(numbers(buildSpreads([portrait(1)], 'double'))).toEqual([[0, 1]]);
    expect(numbers(buildSpreads([portrait(1), portrait(2)], 'double'))).toEqual([
      [0, 1],
      [2, 0],
    ]);
    expect(buildSpreads([], 'double')).toEqual([]);
  });

  it('double without cover: pairs from the first page', () => {
    expect(numbers(buildSpreads(book, 'double-no-cover'))).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(numbers(buildSpreads([1, 2, 3].map(portrait), 'double-no-cover'))).toEqual([
      [1, 2],
      [3, 0],
    ]);
    const pages = [portrait(1), landscape(2), portrait(3), portrait(4)];
    expect(numbers(buildSpreads(pages, 'double-no-cover'))).toEqual([[1, 0], [2], [3, 4]]);
  });

  it('gives a blank the size of its partner, or 20 × 30 when the partner has none', () => {
    const [cover] = buildSpreads([portrait(1), portrait(2)], 'double');
    expect(cover![0]).toEqual({ number: 0, width: 800, height: 1200 });
    const [unsized] = buildSpreads([unknown(1), unknown(2)], 'double');
    expect(unsized![0]).toEqual({ number: 0, width: 20, height: 30 });
  });
});

describe('spreadIndexOf and spreadPage', () => {
  const spreads = buildSpreads([1, 2, 3, 4, 5, 6].map(portrait), 'double');

  it('finds the slide holding a page, the first slide for an unknown page', () => {
    expect(spreadIndexOf(spreads, 1)).toBe(0);
    expect(spreadIndexOf(spreads, 3)).toBe(1);
    expect(spreadIndexOf(spreads, 6)).toBe(3);
    expect(spreadIndexOf(spreads, 99)).toBe(0);
  });

  it('reports the second page of a pair when it is a real page, else the first', () => {
    expect(spreads.map(spreadPage)).toEqual([1, 3, 5, 6]);
    expect(spreadPage([landscape(7)])).toBe(7);
  });
});

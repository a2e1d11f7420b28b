import type { PageLayout } from '../../app/preferences';

/** What spread detection needs of a page: its 1-based number and the dimensions from analysis (null when unknown). */
export interface PageShape {
  number: number;
  width: number | null;
  height: number | null;
}

/** A transparent filler beside a lone page in a two-page spread; number 0, sized like its partner. */
export interface BlankPage {
  number: 0;
  width: number;
  height: number;
}

export type SpreadPage = PageShape | BlankPage;

/** One slide of the paged reader: one or two pages, in reading order. */
export type Spread = readonly SpreadPage[];

/** Used for a blank whose partner has no dimensions. */
const UNKNOWN_SIZE = { width: 20, height: 30 };

/** Wider than tall, by the analysed dimensions; a page without dimensions counts as portrait. */
export function isLandscape(page: PageShape): boolean {
  return page.width !== null && page.height !== null && page.width > page.height;
}

export const isBlank = (page: SpreadPage): page is BlankPage => page.number === 0;

function blankFor(partner: PageShape): BlankPage {
  if (partner.width === null || partner.height === null) return { number: 0, ...UNKNOWN_SIZE };
  return { number: 0, width: partner.width, height: partner.height };
}

/**
 * Pairs pages two by two. A landscape page always stands alone; a portrait page whose would-be partner is landscape
 * (or missing) gets a blank partner instead.
 */
function pairUp(pages: readonly PageShape[]): Spread[] {
  const spreads: Spread[] = [];
  for (let i = 0; i < pages.length;) {
    const page = pages[i]!;
    const partner = pages[i + 1];
    if (isLandscape(page)) {
      spreads.push([page]);
      i += 1;
    } else if (!partner) {
      spreads.push([page, blankFor(page)]);
      i += 1;
    } else if (isLandscape(partner)) {
      spreads.push([page, blankFor(page)], [partner]);
      i += 2;
    } else {
      spreads.push([page, partner]);
      i += 2;
    }
  }
  return spreads;
}

/**
 * The slides of a book for a page layout (ui.md §11.2). *Double* keeps the first page (the cover) and the last page
 * on their own, each beside a blank when portrait, so that the pages in between face each other as in the printed
 * book; *double without cover* pairs from the first page.
 */
export function buildSpreads(pages: readonly PageShape[], layout: PageLayout): Spread[] {
  if (layout === 'single') return pages.map((p) => [p]);
  if (layout === 'double-no-cover') return pairUp(pages);
  if (pages.length === 0) return [];
  const first = pages[0]!;
  const spreads: Spread[] = [isLandscape(first) ? [first] : [blankFor(first), first]];
  if (pages.length === 1) return spreads;
  const last = pages[pages.length - 1]!;
  spreads.push(...pairUp(pages.slice(1, -1)));
  spreads.push(isLandscape(last) ? [last] : [last, blankFor(last)]);
  return spreads;
}

/** The slide holding page `page`; the first slide when no slide holds it. */
export function spreadIndexOf(spreads: readonly Spread[], page: number): number {
  const index = spreads.findIndex((s) => s.some((p) => p.number === page));
  return index < 0 ? 0 : index;
}

/** The page a slide stands for (progress, slider): its second page when that is a real page, else its first. */
export function spreadPage(spread: Spread): number {
  const second = spread[1];
  if (second && !isBlank(second)) return second.number;
  return spread[0]?.number ?? 1;
}

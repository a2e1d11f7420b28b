import { LATIN_GROUPS, type LetterGroup } from '../../components/browse/AlphabeticalNav';

/**
 * The series groupings of the alphabetical navigation (ui.md §1.8, §13.3), stored as the global client setting
 * `webui.series_groups`: JSON `{name, groups: {symbol: [prefixes]}}`, `name` being `alpha` or `japanese`.
 */
export type SeriesGroupingName = 'alpha' | 'japanese';

/**
 * The 46 rows of the Gojūon, each under its hiragana and matching it, its katakana and their voiced (dakuten,
 * handakuten) forms: a title beginning with ガ belongs under か.
 */
const GOJUON_ROWS =
  'あア いイ うウゔヴ えエ おオ かカがガ きキぎギ くクぐグ けケげゲ こコごゴ さサざザ しシじジ すスずズ せセぜゼ ' +
  'そソぞゾ たタだダ ちチぢヂ つツづヅ てテでデ とトどド なナ にニ ぬヌ ねネ のノ はハばバぱパ ひヒびビぴピ ' +
  'ふフぶブぷプ へヘべベぺペ ほホぼボぽポ まマ みミ むム めメ もモ やヤ ゆユ よヨ らラ りリ るル れレ ろロ わワ ' +
  'をヲ んン';

export const GOJUON_GROUPS: LetterGroup[] = GOJUON_ROWS.split(' ').map((row) => {
  const prefixes = [...row];
  return { symbol: prefixes[0]!, prefixes };
});

export const SERIES_GROUPINGS: Record<SeriesGroupingName, LetterGroup[]> = {
  alpha: LATIN_GROUPS,
  japanese: GOJUON_GROUPS,
};

/** The stored value of a grouping. */
export function seriesGroupsValue(name: SeriesGroupingName): string {
  const groups = Object.fromEntries(SERIES_GROUPINGS[name].map((g) => [g.symbol, g.prefixes]));
  return JSON.stringify({ name, groups });
}

/**
 * The grouping a stored value describes; A to Z when there is none or it cannot be read (another client may
 * have written anything under the key). Prefixes are compared in lower case, as the server's counts are.
 */
export function parseSeriesGroups(value: string | undefined): { name: SeriesGroupingName; groups: LetterGroup[] } {
  const fallback = { name: 'alpha' as const, groups: LATIN_GROUPS };
  if (!value) return fallback;
  try {
    const parsed = JSON.parse(value) as { name?: unknown; groups?: unknown };
    if (!parsed.groups || typeof parsed.groups !== 'object' || Array.isArray(parsed.groups)) return fallback;
    const groups: LetterGroup[] = [];
    for (const [symbol, prefixes] of Object.entries(parsed.groups as Record<string, unknown>)) {
      if (!Array.isArray(prefixes) || !prefixes.every((p) => typeof p === 'string' && p !== '')) return fallback;
      groups.push({ symbol, prefixes: prefixes.map((p: string) => p.toLowerCase()) });
    }
    if (!groups.length) return fallback;
    return { name: parsed.name === 'japanese' ? 'japanese' : 'alpha', groups };
  } catch {
    return fallback;
  }
}

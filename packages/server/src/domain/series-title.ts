/**
 * Series naming (engine.md §2.2, §2.7, §3.1, §3.5, §9.1). Pure.
 */
import { fold } from './text.js';

/**
 * Series name from its folder path (§2.2): the last path component; for a file-system root, the
 * path string itself (`/`). Trailing separators are ignored.
 */
export function seriesNameFromFolder(folderPath: string): string {
  const trimmed = folderPath.replace(/\/+$/, '');
  if (trimmed === '') return folderPath === '' ? '' : '/';
  const slash = trimmed.lastIndexOf('/');
  return slash < 0 ? trimmed : trimmed.slice(slash + 1);
}

/**
 * Series metadata created with a new series (§3.1): `title = titleSort = name`. No article
 * stripping, no later auto-generation of titleSort. Komga trims titles in the model (§1.5).
 */
export function initialSeriesMetadata(seriesName: string): { title: string; titleSort: string } {
  const t = seriesName.trim();
  return { title: t, titleSort: t };
}

/**
 * Titles of a series restored from a deleted one (§2.7): the old title/titleSort are kept only when
 * locked; otherwise the new folder name is used.
 */
export function restoredSeriesTitles(
  old: { title: string; titleSort: string; titleLock: boolean; titleSortLock: boolean },
  newName: string,
): { title: string; titleSort: string } {
  const fresh = initialSeriesMetadata(newName);
  return {
    title: old.titleLock ? old.title : fresh.title,
    titleSort: old.titleSortLock ? old.titleSort : fresh.titleSort,
  };
}

/**
 * Title of a book restored from a deleted one (§2.7): the old title only when locked; otherwise the
 * new book name, and a RefreshBookMetadata {TITLE} must be queued (`refreshTitle`).
 */
export function restoredBookTitle(
  old: { title: string; titleLock: boolean },
  newBookName: string,
): { title: string; refreshTitle: boolean } {
  return old.titleLock ? { title: old.title, refreshTitle: false } : { title: newBookName.trim(), refreshTitle: true };
}

/**
 * `computeSeriesFromSeriesAndVolume` (§3.5): null when the series is blank; otherwise the series,
 * with ` (N)` appended when a volume is present and ≠ 1.
 */
export function seriesWithVolume(series: string | null | undefined, volume: number | null | undefined): string | null {
  if (series == null || series.trim() === '') return null;
  return volume != null && volume !== 1 ? `${series} (${volume})` : series;
}

/**
 * The series a book from outside the libraries probably belongs to (engine.md §9.1): for each candidate name in
 * order, the first series (in the order given) whose title is that name, else the first whose title contains it,
 * compared without regard to case or accents (the reference's ICU primary strength). Null when none matches.
 */
export function guessSeries(names: readonly string[], series: readonly { id: string; title: string }[]): string | null {
  const titles = series.map((s) => ({ id: s.id, title: fold(s.title) }));
  for (const name of names) {
    const wanted = fold(name);
    if (!wanted) continue;
    const hit = titles.find((s) => s.title === wanted) ?? titles.find((s) => s.title.includes(wanted));
    if (hit) return hit.id;
  }
  return null;
}

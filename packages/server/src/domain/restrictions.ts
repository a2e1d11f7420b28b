import type { AgeRestriction, Role } from './user.js';

/**
 * Library sharing and content restrictions (api.md §2.10, engine.md §15). Pure rules: the database
 * queries apply the same ones when listing.
 */

/** What the rules read about a user (a CurrentUser fits). */
export interface ContentViewer {
  roles: ReadonlySet<Role>;
  sharedAllLibraries: boolean;
  sharedLibraryIds: readonly string[];
  ageRestriction: AgeRestriction | null;
  labelsAllow: readonly string[];
  labelsExclude: readonly string[];
}

/** What the rules read about a series (its metadata); books inherit their series'. */
export interface RestrictedContent {
  ageRating: number | null;
  sharingLabels: readonly string[];
}

/** Nothing hides anything from this viewer: every library, no age or label rule. */
export function seesEverything(viewer: ContentViewer): boolean {
  return (
    (viewer.roles.has('ADMIN') || viewer.sharedAllLibraries) &&
    viewer.ageRestriction === null &&
    viewer.labelsAllow.length === 0 &&
    viewer.labelsExclude.length === 0
  );
}

/** Admins and users shared all libraries see every library; others only theirs. */
export function canAccessLibrary(user: ContentViewer, libraryId: string): boolean {
  return user.roles.has('ADMIN') || user.sharedAllLibraries || user.sharedLibraryIds.includes(libraryId);
}

/**
 * Age rating and sharing labels (apply to admins too). Allowed part: with ALLOW_ONLY age and/or
 * labelsAllow, either one that holds suffices; with none, allowed. Denied part: EXCLUDE age when the
 * rating is known and ≥ age; any excluded label present. Labels compare lower-cased.
 */
export function isContentAllowed(user: ContentViewer, content: RestrictedContent): boolean {
  const labels = new Set(content.sharingLabels.map((l) => l.toLowerCase()));
  const age = user.ageRestriction;
  const allowRules: boolean[] = [];
  if (age?.restriction === 'ALLOW_ONLY') allowRules.push(content.ageRating !== null && content.ageRating <= age.age);
  if (user.labelsAllow.length > 0) allowRules.push(user.labelsAllow.some((l) => labels.has(l.toLowerCase())));
  const allowed = allowRules.length === 0 || allowRules.some(Boolean);
  const ageDenied = age?.restriction === 'EXCLUDE' && content.ageRating !== null && content.ageRating >= age.age;
  const labelDenied = user.labelsExclude.some((l) => labels.has(l.toLowerCase()));
  return allowed && !ageDenied && !labelDenied;
}

/** Single-entity access (api.md §2.10): 'ok', or 'forbidden' (library not shared or content restricted). */
export function accessTo(user: ContentViewer, target: { libraryId: string } & RestrictedContent): 'ok' | 'forbidden' {
  return canAccessLibrary(user, target.libraryId) && isContentAllowed(user, target) ? 'ok' : 'forbidden';
}

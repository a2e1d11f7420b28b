import { describe, expect, it } from 'vitest';
import type { AgeRestriction, Role } from './user.js';
import { accessTo, canAccessLibrary, isContentAllowed, seesEverything } from './restrictions.js';

const user = (over: {
  roles?: Role[];
  all?: boolean;
  libs?: string[];
  age?: AgeRestriction | null;
  allow?: string[];
  exclude?: string[];
}) => ({
  roles: new Set<Role>(over.roles ?? []),
  sharedAllLibraries: over.all ?? true,
  sharedLibraryIds: over.libs ?? [],
  ageRestriction: over.age ?? null,
  labelsAllow: over.allow ?? [],
  labelsExclude: over.exclude ?? [],
});

describe('content restrictions (engine.md §15.2 PIN table)', () => {
  it.each([
    // ALLOW_ONLY 5 → 3, 5 ok; 8 and null not
    [{ age: { age: 5, restriction: 'ALLOW_ONLY' } }, 3, [], true],
    [{ age: { age: 5, restriction: 'ALLOW_ONLY' } }, 5, [], true],
    [{ age: { age: 5, restriction: 'ALLOW_ONLY' } }, 8, [], false],
    [{ age: { age: 5, restriction: 'ALLOW_ONLY' } }, null, [], false],
    // EXCLUDE 16 → 10, null ok; 16, 18 not
    [{ age: { age: 16, restriction: 'EXCLUDE' } }, 10, [], true],
    [{ age: { age: 16, restriction: 'EXCLUDE' } }, null, [], true],
    [{ age: { age: 16, restriction: 'EXCLUDE' } }, 16, [], false],
    [{ age: { age: 16, restriction: 'EXCLUDE' } }, 18, [], false],
    // labelsAllow: any of them ok, none or empty not
    [{ allow: ['allow', 'this'] }, null, ['allow'], true],
    [{ allow: ['allow', 'this'] }, null, ['this', 'other'], true],
    [{ allow: ['allow', 'this'] }, null, ['other'], false],
    [{ allow: ['allow', 'this'] }, null, [], false],
    // both allow rules: either suffices
    [{ age: { age: 5, restriction: 'ALLOW_ONLY' }, allow: ['kids'] }, 12, ['kids'], true],
    [{ age: { age: 5, restriction: 'ALLOW_ONLY' }, allow: ['kids'] }, 3, [], true],
    [{ age: { age: 5, restriction: 'ALLOW_ONLY' }, allow: ['kids'] }, 12, [], false],
    // exclusion wins over allow; labels compare lower-cased
    [{ allow: ['kids'], exclude: ['gore'] }, null, ['kids', 'Gore'], false],
    [{ exclude: ['gore'] }, null, ['other'], true],
    [{}, 18, ['anything'], true],
  ] as const)('%j, rating %s, labels %j → %s', (u, ageRating, labels, visible) => {
    const viewer = user({ ...u, age: 'age' in u ? (u.age as AgeRestriction) : null } as Parameters<typeof user>[0]);
    expect(isContentAllowed(viewer, { ageRating, sharingLabels: labels })).toBe(visible);
  });

  it('shares libraries with admins, users shared all, and users shared that library only', () => {
    expect(canAccessLibrary(user({ roles: ['ADMIN'], all: false }), 'L1')).toBe(true);
    expect(canAccessLibrary(user({ all: true }), 'L1')).toBe(true);
    expect(canAccessLibrary(user({ all: false, libs: ['L1'] }), 'L1')).toBe(true);
    expect(canAccessLibrary(user({ all: false, libs: ['L2'] }), 'L1')).toBe(false);
  });

  it('restricts admins too', () => {
    const admin = user({ roles: ['ADMIN'], exclude: ['x'] });
    expect(accessTo(admin, { libraryId: 'L', ageRating: null, sharingLabels: ['x'] })).toBe('forbidden');
  });
});

describe('seesEverything', () => {
  it('holds only with every library and no age or label rule', () => {
    expect(seesEverything(user({}))).toBe(true);
    expect(seesEverything(user({ roles: ['ADMIN'], all: false }))).toBe(true);
    expect(seesEverything(user({ all: false, libs: ['a'] }))).toBe(false);
    expect(seesEverything(user({ age: { age: 16, restriction: 'EXCLUDE' } }))).toBe(false);
    expect(seesEverything(user({ roles: ['ADMIN'], age: { age: 5, restriction: 'ALLOW_ONLY' } }))).toBe(false);
    expect(seesEverything(user({ allow: ['kids'] }))).toBe(false);
    expect(seesEverything(user({ exclude: ['gore'] }))).toBe(false);
  });
});

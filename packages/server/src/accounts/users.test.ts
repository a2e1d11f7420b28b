import { describe, expect, it } from 'vitest';
import { toAgeRestriction, toLabels, toRoles } from './users.js';

describe('user input rules', () => {
  it('keeps known roles in any case, in canonical order, and drops the rest', () => {
    expect(toRoles(['page_streaming', 'USER', 'Admin', 'nope', 'ADMIN'])).toEqual(['ADMIN', 'PAGE_STREAMING']);
  });

  it('lower-cases, trims and de-duplicates labels', () => {
    expect(toLabels([' Kids', 'kids', 'B', ''])).toEqual(['b', 'kids']);
    expect(toLabels(null)).toEqual([]);
  });

  it.each([
    [null, null],
    [{ age: 10, restriction: 'NONE' }, null],
    [
      { age: 10, restriction: 'allow_only' },
      { age: 10, restriction: 'ALLOW_ONLY' },
    ],
    [
      { age: 18, restriction: 'EXCLUDE' },
      { age: 18, restriction: 'EXCLUDE' },
    ],
  ])('reads the age restriction %j as %j', (input, expected) => {
    expect(toAgeRestriction(input)).toEqual(expected);
  });
});

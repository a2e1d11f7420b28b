import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('never repeats, even for 200,000 ids made within the same milliseconds (a big scan)', () => {
    const now = Date.UTC(2026, 0, 1);
    const ids = new Set<string>();
    for (let i = 0; i < 200_000; i++) ids.add(newId(now + Math.floor(i / 50_000)));
    expect(ids.size).toBe(200_000);
  });

  it('sorts by creation time, also within one millisecond', () => {
    const now = Date.UTC(2026, 0, 1);
    const ids = [newId(now), newId(now), newId(now), newId(now + 1), newId(now + 2)];
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{13}$/.test(id))).toBe(true);
  });
});

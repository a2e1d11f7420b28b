import { describe, expect, it } from 'vitest';
import { formatFileSize } from './format';

/** Intl separates a number from its unit with a no-break space in some languages. */
const size = (bytes: number, locale: string) => formatFileSize(bytes, locale).replace(/[\u00a0\u202f]/g, ' ');

describe('formatFileSize', () => {
  it('names a size under a kilobyte in bytes, agreeing with the number', () => {
    expect(size(182, 'en')).toBe('182 bytes');
    expect(size(1, 'en')).toBe('1 byte');
    expect(size(182, 'fr')).toBe('182 octets');
  });

  it('gives larger sizes in decimal units with their short names', () => {
    expect(size(18_400, 'en')).toBe('18 kB');
    expect(size(23_100_000, 'en')).toBe('23.1 MB');
    expect(size(23_100_000, 'fr')).toBe('23,1 Mo');
  });
});

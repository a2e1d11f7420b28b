import { describe, expect, it } from 'vitest';
import { LOCALES, namespacesByLocale } from './index';

const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([key, value]) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? flatten(value as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

/** Plural keys collapse to their base plus the exact set of plural categories the language needs. */
function expectedKeys(enKeys: string[], lang: string): string[] {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of enKeys) {
    if (PLURAL.test(key)) {
      const base = key.replace(PLURAL, '');
      categories.forEach((c) => keys.add(`${base}_${c}`));
    } else keys.add(key);
  }
  return [...keys].sort();
}

const en = namespacesByLocale.en!;

describe('locale files', () => {
  it('has a folder for every interface language', () => {
    expect(Object.keys(namespacesByLocale).sort()).toEqual(LOCALES.map((l) => l.code).sort());
  });

  for (const { code } of LOCALES.filter((l) => l.code !== 'en')) {
    it(`${code} has the same namespaces as en`, () => {
      expect(Object.keys(namespacesByLocale[code] ?? {}).sort()).toEqual(Object.keys(en).sort());
    });
    for (const ns of Object.keys(en)) {
      it(`${code}/${ns}.json has exactly en's keys (plural forms per language)`, () => {
        const actual = flatten(namespacesByLocale[code]?.[ns] ?? {}).sort();
        expect(actual).toEqual(expectedKeys(flatten(en[ns]!), code));
      });
    }
  }

  it('en uses one and other for every plural key', () => {
    for (const ns of Object.keys(en)) expect(flatten(en[ns]!).sort()).toEqual(expectedKeys(flatten(en[ns]!), 'en'));
  });

  it('Polish has one, few, many and other forms', () => {
    expect(new Intl.PluralRules('pl').resolvedOptions().pluralCategories).toEqual(
      expect.arrayContaining(['one', 'few', 'many', 'other']),
    );
  });
});

describe('source strings', () => {
  const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
    query: '?raw',
    import: 'default',
    eager: true,
  });
  const enKeys = new Set(Object.keys(en).flatMap((ns) => flatten(en[ns]!, `${ns}.`)));
  const exists = (key: string) => enKeys.has(key) || enKeys.has(`${key}_one`) || enKeys.has(`${key}_other`);
  const literal = /\bt\(\s*(['"])([^'"]+)\1/g;

  it('finds source files to check', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(10);
  });

  it('every t(…) literal exists in en', () => {
    const missing: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      for (const match of text.matchAll(literal)) if (!exists(match[2]!)) missing.push(`${file}: ${match[2]}`);
    }
    expect(missing).toEqual([]);
  });
});

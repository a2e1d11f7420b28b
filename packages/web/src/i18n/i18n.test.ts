import { describe, expect, it } from 'vitest';
import { LOCALES } from './index';

/** `{ en: { common: {...}, nav: {...} }, ... }`: every language's files, read here at once (the app loads one). */
const namespacesByLocale: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, content] of Object.entries(
  import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { eager: true, import: 'default' }),
)) {
  const [, lang, ns] = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path)!;
  (namespacesByLocale[lang!] ??= {})[ns!] = content;
}

/**
 * Keys a language may leave equal to English because the word is the same there (an international word or a
 * cognate: German "Name", French "Format"), listed per language in `sameAsEnglish/<code>.json`. Kept short.
 */
const sameAsEnglish = import.meta.glob<string[]>('./sameAsEnglish/*.json', { eager: true, import: 'default' });
const MAX_SAME_AS_ENGLISH = 0.05;

/** Names that stay as they are in every language (products, formats, standards). */
const PROPER_NOUNS =
  /\b(Quire|Komga|ComicInfo|Mylar|ComicRack|EPUB|PDF|CBZ|CBR|CB7|CBT|ZIP|RAR|7z|TAR|ISBN|OPDS|KOReader|Kobo|OAuth2|OpenID|OIDC|JPEG|PNG|WebP|GIF|AVIF|JXL|HEIF|URL|API|SSE|JSON|CSV|RSS|Atom|GitHub|Google|Mihon|Tachiyomi|Readium|kepubify|SQLite|PostgreSQL|MiB|KiB|GiB|MB|KB|GB|px|ms|OK|Webtoon|YYYY-MM-DD)\b/g;

/** What must be translated in a string: its letters once placeholders, tags and proper nouns are taken out. */
function translatableLetters(value: string): string {
  return value
    .replace(/{{[^}]*}}|<\/?[a-z0-9]+>/g, '')
    .replace(PROPER_NOUNS, '')
    .replace(/[^\p{L}]/gu, '');
}

function flatValues(obj: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(obj)) {
    if (value && typeof value === 'object')
      for (const [k, v] of flatValues(value as Record<string, unknown>, `${prefix}${key}.`)) out.set(k, v);
    else out.set(`${prefix}${key}`, String(value));
  }
  return out;
}

const tokens = (value: string) => [...value.matchAll(/{{[^}]*}}|<\/?[a-z0-9]+>/g)].map((m) => m[0]).sort();

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
  it('lists every language that has a folder, and has a folder for every listed language', () => {
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

  const enValues = new Map(Object.entries(en).flatMap(([ns, content]) => [...flatValues(content, `${ns}.`)]));
  const enBase = (key: string) => {
    const base = key.replace(PLURAL, '');
    return base === key ? [enValues.get(key)!] : [enValues.get(`${base}_one`)!, enValues.get(`${base}_other`)!];
  };

  for (const { code } of LOCALES.filter((l) => l.code !== 'en')) {
    const values = new Map(
      Object.entries(namespacesByLocale[code] ?? {}).flatMap(([ns, content]) => [...flatValues(content, `${ns}.`)]),
    );
    const same = new Set(sameAsEnglish[`./sameAsEnglish/${code}.json`] ?? []);

    it(`${code} keeps English's placeholders and tags in every string`, () => {
      const wrong: string[] = [];
      for (const [key, value] of values) {
        const english = enBase(key).filter(Boolean);
        if (english.length === 0) continue;
        // A plural form may drop {{count}} ("one book"), as English's `_one` may; it may not invent or lose others.
        const allowed = new Set(english.flatMap(tokens));
        const required = tokens(english.at(-1)!).filter((tk) => tk !== '{{count}}');
        const mine = tokens(value);
        if (mine.some((tk) => !allowed.has(tk)) || required.some((tk) => !mine.includes(tk)))
          wrong.push(`${key}: ${value}`);
        if (
          mine.filter((tk) => tk.startsWith('<')).join() !==
          tokens(english.at(-1)!)
            .filter((tk) => tk.startsWith('<'))
            .join()
        )
          wrong.push(`${key} (tags): ${value}`);
      }
      expect(wrong).toEqual([]);
    });

    it(`${code} translates every string (none left in English but the listed same-as-English words)`, () => {
      const untranslated = [...values].filter(([key, value]) => {
        const english = enBase(key);
        return english.includes(value) && translatableLetters(value) !== '' && !same.has(key);
      });
      expect(untranslated.map(([key, value]) => `${key}: ${value}`)).toEqual([]);
      expect([...same].filter((key) => !values.has(key))).toEqual([]);
      expect(same.size).toBeLessThanOrEqual(Math.ceil(values.size * MAX_SAME_AS_ENGLISH));
    });
  }

  it('every language names itself in its own language', () => {
    for (const { code, name } of LOCALES) {
      expect(name).not.toBe('');
      // The language's own name for itself, as CLDR gives it ("Deutsch", "Português (Brasil)", "ትግርኛ").
      const own = new Intl.DisplayNames([code], { type: 'language' }).of(code)!;
      expect(name.toLocaleLowerCase(code), code).toContain(own.toLocaleLowerCase(code));
    }
  });

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

import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n, { detectLocale, switchLocale } from './index';

afterEach(async () => {
  await switchLocale('en');
});

describe('the language of a first visit', () => {
  it.each([
    [['pt-BR', 'pt'], 'pt-BR'],
    [['pt-PT', 'en'], 'pt'],
    [['zh-TW'], 'zh-Hant'],
    [['zh-HK'], 'zh-Hant'],
    [['zh-CN'], 'zh-Hans'],
    [['zh'], 'zh-Hans'],
    [['de-AT', 'en'], 'de'],
    [['iw'], 'he'],
    [['no'], 'nb'],
    [['nn-NO'], 'nb'],
    [['fr-CA', 'fr'], 'fr'],
    [['xx-unknown', 'not a tag!', 'ja-JP'], 'ja'],
    [['gd', 'cy'], 'en'],
    [[], 'en'],
  ])('%j → %s', (preferred, expected) => {
    expect(detectLocale(preferred)).toBe(expected);
  });

  it('answers a language offered in one form without ICU’s likely scripts (a cold start’s ~10 ms)', () => {
    const locale = vi.spyOn(Intl, 'Locale');
    try {
      expect(detectLocale(['en-US'])).toBe('en');
      expect(detectLocale(['de-CH', 'fr'])).toBe('de');
      expect(locale).not.toHaveBeenCalled();
      detectLocale(['zh-TW']); // the spy proves it sees the lookup
      expect(locale).toHaveBeenCalled();
    } finally {
      locale.mockRestore();
    }
  });
});

describe('values in right-to-left sentences', () => {
  it('keeps a Latin file name in its own order inside Arabic text, and adds nothing in English', async () => {
    const name = 'Captain Science #001.cbz';
    expect(i18n.t('common.seriesPicker.inLibrary', { library: name })).toBe(`in ${name}`);
    await switchLocale('ar');
    const arabic = i18n.t('common.seriesPicker.inLibrary', { library: name });
    expect(arabic).toContain(`\u2068${name}\u2069`);
    expect(document.documentElement.dir).toBe('rtl');
  });
});

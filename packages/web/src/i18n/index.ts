import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getPreferences } from '../app/preferences';
import { LOCALES, type Locale } from './locales';

export { LOCALES, type Locale };
export const FALLBACK_LOCALE = 'en';

export function isLocale(value: unknown): value is Locale {
  return LOCALES.some((l) => l.code === value);
}

type Namespaces = Record<string, Record<string, unknown>>;

/**
 * Every namespace file (`locales/<lang>/<ns>.json`) is merged into one `translation` resource per language, so keys
 * read `<ns>.<key>` (`common.cancel`, `errors.ERR_1006`). Features add a namespace by adding a file per language.
 * English, the fallback, is in the main bundle; every other language is fetched when chosen, as one chunk
 * (vite.config.ts groups a language's files), so 38 languages cost the first screen nothing.
 */
const englishFiles = import.meta.glob<Record<string, unknown>>('./locales/en/*.json', {
  eager: true,
  import: 'default',
});
const otherFiles = import.meta.glob<Record<string, unknown>>(['./locales/*/*.json', '!./locales/en/*.json'], {
  import: 'default',
});

const FILE = /\.\/locales\/([^/]+)\/([^/]+)\.json$/;

function namespacesOf(files: Record<string, Record<string, unknown>>): Namespaces {
  return Object.fromEntries(Object.entries(files).map(([path, content]) => [FILE.exec(path)![2]!, content]));
}

/** Fetches a language's strings once and hands them to i18next; English is always there. */
export async function loadLocale(code: Locale): Promise<void> {
  if (i18n.hasResourceBundle(code, 'translation')) return;
  const entries = Object.entries(otherFiles).filter(([path]) => FILE.exec(path)?.[1] === code);
  const loaded = await Promise.all(entries.map(async ([path, load]) => [path, await load()] as const));
  i18n.addResourceBundle(code, 'translation', namespacesOf(Object.fromEntries(loaded)));
}

/**
 * The interface language that best serves a browser's preferred languages: an exact tag, then the same language in
 * the same script (`zh-TW` → `zh-Hant`), then the language alone (`pt-PT` → `pt`); English when none matches.
 */
export function detectLocale(preferred: readonly string[]): Locale {
  const byLowerCase = new Map(LOCALES.map((l) => [l.code.toLowerCase(), l.code as Locale]));
  for (const tag of preferred) {
    const exact = byLowerCase.get(tag.toLowerCase());
    if (exact) return exact;
    // A language offered in one form only (`en-US` → `en`) is the answer whatever the script: ICU's likely-subtags
    // data, which `maximize` loads, cost ~10 ms of a cold start.
    const primary = tag.toLowerCase().split('-')[0]!;
    const forms = LOCALES.filter((l) => l.code.toLowerCase().split('-')[0] === primary);
    if (forms.length === 1 && forms[0]!.code.toLowerCase() === primary) return forms[0]!.code as Locale;
    let locale: Intl.Locale;
    try {
      locale = new Intl.Locale(tag).maximize();
    } catch {
      continue;
    }
    // Norwegian in general and Nynorsk readers get Bokmål, the written standard most of them read.
    const language = locale.language === 'no' || locale.language === 'nn' ? 'nb' : locale.language;
    const match = byLowerCase.get(`${language}-${locale.script}`.toLowerCase()) ?? byLowerCase.get(language);
    if (match) return match;
  }
  return FALLBACK_LOCALE;
}

/** The language to show: the one the user chose, else the browser's best match. */
export function wantedLocale(): Locale {
  const chosen = getPreferences().locale;
  if (isLocale(chosen)) return chosen;
  return detectLocale(typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]));
}

let lastRequested: Locale | undefined;

/** Loads a language and switches to it, the document's lang and dir following; the last request wins. */
export async function switchLocale(code: Locale): Promise<void> {
  lastRequested = code;
  await loadLocale(code);
  if (lastRequested === code && i18n.language !== code) await i18n.changeLanguage(code);
}

function applyDocumentLanguage(lng: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = i18n.dir(lng);
}

i18n.on('languageChanged', applyDocumentLanguage);

// First strong isolate … pop directional isolate: a value put into a right-to-left sentence (a file name, a title in
// Latin script, "23.1 MB") keeps its own order instead of being reordered with the words around it.
const FSI = '\u2068';
const PDI = '\u2069';
const isolateInRightToLeft = (value: unknown) => {
  const text = String(value);
  return i18n.dir() === 'rtl' && text !== '' ? `${FSI}${text}${PDI}` : text;
};

void i18n.use(initReactI18next).init({
  resources: { [FALLBACK_LOCALE]: { translation: namespacesOf(englishFiles) } },
  lng: FALLBACK_LOCALE,
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: LOCALES.map((l) => l.code),
  // React escapes what it renders; i18next's "escape" step only isolates the direction of interpolated values.
  interpolation: { escapeValue: true, escape: isolateInRightToLeft },
  returnNull: false,
  initAsync: false,
});
applyDocumentLanguage(i18n.language);

export default i18n;

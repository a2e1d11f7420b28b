import i18n, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getPreferences } from '../app/preferences';
import { LOCALES, type Locale } from './locales';

/**
 * Every namespace file (`locales/<lang>/<ns>.json`) is bundled and merged into one `translation` resource per language,
 * so keys read `<ns>.<key>` (`common.cancel`, `errors.ERR_1006`). Features add a namespace by adding a file per language.
 */
const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', { eager: true, import: 'default' });

export { LOCALES, type Locale };
export const FALLBACK_LOCALE = 'en';

export function isLocale(value: unknown): value is Locale {
  return LOCALES.some((l) => l.code === value);
}

/** `{ en: { common: {...}, nav: {...} }, ... }`, exported for the key-parity test. */
export const namespacesByLocale: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, content] of Object.entries(files)) {
  const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lang, ns] = match as unknown as [string, string, string];
  (namespacesByLocale[lang] ??= {})[ns] = content;
}

const resources: Resource = Object.fromEntries(
  Object.entries(namespacesByLocale).map(([lang, namespaces]) => [lang, { translation: namespaces }]),
);

function applyDocumentLanguage(lng: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lng;
  document.documentElement.dir = i18n.dir(lng);
}

i18n.on('languageChanged', applyDocumentLanguage);

void i18n.use(initReactI18next).init({
  resources,
  lng: isLocale(getPreferences().locale) ? getPreferences().locale : FALLBACK_LOCALE,
  fallbackLng: FALLBACK_LOCALE,
  supportedLngs: LOCALES.map((l) => l.code),
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
applyDocumentLanguage(i18n.language);

export default i18n;

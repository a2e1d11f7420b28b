/**
 * The interface languages, each named in its own language (the language selector lists them like this). A language
 * is added by adding its folder under `locales/` and one line here; the parity test checks both.
 */
export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'ar', name: 'العربية' },
  { code: 'bg', name: 'Български' },
  { code: 'cs', name: 'Čeština' },
  { code: 'pl', name: 'Polski' },
  { code: 'ru', name: 'Русский' },
  { code: 'sk', name: 'Slovenčina' },
  { code: 'uk', name: 'Українська' },
] as const;
export type Locale = (typeof LOCALES)[number]['code'];

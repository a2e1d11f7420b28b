/**
 * The interface languages, each named in its own language (the language selector lists them like this). A language
 * is added by adding its folder under `locales/` and one line here; the parity test checks both.
 */
export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'ar', name: 'العربية' },
  { code: 'el', name: 'Ελληνικά' },
  { code: 'hr', name: 'Hrvatski' },
  { code: 'id', name: 'Bahasa Indonesia' },
  { code: 'pl', name: 'Polski' },
  { code: 'sl', name: 'Slovenščina' },
  { code: 'tr', name: 'Türkçe' },
] as const;
export type Locale = (typeof LOCALES)[number]['code'];

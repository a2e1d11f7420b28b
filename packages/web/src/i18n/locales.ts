/**
 * The interface languages, each named in its own language (the language selector lists them like this). A language
 * is added by adding its folder under `locales/` and one line here; the parity test checks both.
 */
export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'ar', name: 'العربية' },
  { code: 'eo', name: 'Esperanto (Lingvo Internacia)' },
  { code: 'fi', name: 'Suomi' },
  { code: 'hu', name: 'Magyar' },
  { code: 'pl', name: 'Polski' },
  { code: 'pt', name: 'Português' },
  { code: 'pt-BR', name: 'Português (Brasil)' },
] as const;
export type Locale = (typeof LOCALES)[number]['code'];

import i18n from 'i18next';
export declare const FALLBACK_LOCALE = "en";
/** The interface languages, each named in its own language (the language selector lists them like this). */
export declare const LOCALES: readonly [{
    readonly code: "en";
    readonly name: "English";
}, {
    readonly code: "ar";
    readonly name: "العربية";
}, {
    readonly code: "pl";
    readonly name: "Polski";
}];
export type Locale = (typeof LOCALES)[number]['code'];
export declare function isLocale(value: unknown): value is Locale;
/** `{ en: { common: {...}, nav: {...} }, ... }`, exported for the key-parity test. */
export declare const namespacesByLocale: Record<string, Record<string, Record<string, unknown>>>;
export default i18n;

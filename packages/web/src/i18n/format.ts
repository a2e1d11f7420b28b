import { useTranslation } from 'react-i18next';

const SIZE_UNITS = [
  ['terabyte', 1000 ** 4],
  ['gigabyte', 1000 ** 3],
  ['megabyte', 1000 ** 2],
  ['kilobyte', 1000],
] as const;

/**
 * A file size in the user's language: its digits, decimal separator and unit name ("23.1 MB", "23,1 Mo",
 * "٢٣٫١ ميغابايت"). Intl names only the decimal units (kB = 1000 bytes), so the sizes are decimal multiples: the
 * label then means what it says, where the server's `size` field ("22 KiB") is English and binary.
 */
export function formatFileSize(bytes: number, locale: string | undefined): string {
  const [unit, scale] = SIZE_UNITS.find(([, s]) => bytes >= s) ?? (['byte', 1] as const);
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    // Short names give "182 byte" in English; the long ones agree with the number ("182 bytes", "182 octets")
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: unit === 'byte' || unit === 'kilobyte' ? 0 : 1,
  }).format(bytes / scale);
}

/** `formatFileSize` in the interface language. */
export function useFileSizeFormat(): (bytes: number) => string {
  const { i18n } = useTranslation();
  return (bytes) => formatFileSize(bytes, i18n.language || undefined);
}

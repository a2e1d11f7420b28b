import type { TFunction } from 'i18next';
/** A server message with every `ERR_xxxx` code in it replaced by its translation (unknown codes stay as they are). */
export declare function translateServerMessage(t: TFunction, message: string): string;
/** The text to show for any thrown value: the server's (translated) message, else a generic sentence. */
export declare function errorText(t: TFunction, error: unknown): string;

import type { TFunction } from 'i18next';
export interface LoginErrors {
    email?: string;
    password?: string;
}
/** Spec §5: both fields required ('Required'), and the e-mail must look like an address. */
export declare function validateLogin(t: TFunction, email: string, password: string): LoginErrors;
/** Spec §8: a 401 reads "Invalid authentication" plus the server's detail; anything else names the operation. */
export declare function loginErrorText(t: TFunction, error: unknown, creating: boolean): string;
/** `/login?redirect=…`: e-mail, password and remember me; create-account mode while the server is unclaimed. */
export declare function LoginPage(): import("react").JSX.Element;

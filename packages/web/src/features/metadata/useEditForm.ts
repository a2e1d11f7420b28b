import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useErrorText } from '../../components/dialogs';
import { translateServerMessage } from '../../i18n/errorMessage';
import { useMetadataForm, type FormInit, type Lock, type MetadataForm } from './form-state';
import { violationField, type MessageKey } from './validation';

type KeysOf<V, T> = { [K in keyof V]: V[K] extends T ? K : never }[keyof V] & string;

export interface EditForm<V extends object> extends MetadataForm<V> {
  /** A save was attempted: every problem shows, not only those of edited fields. */
  submitted: boolean;
  setSubmitted: (v: boolean) => void;
  /** The message under a field: the server's refusal, else the client check once relevant. */
  errorOf: (key: keyof V & string) => string | null;
  /** The server's refusal of a field, if any. */
  serverErrorOf: (key: keyof V & string) => string | null;
  /** Whether any of these fields shows an error (to mark its tab). */
  hasError: (keys: readonly (keyof V & string)[]) => boolean;
  /** Fields with a client-side problem. */
  invalid: (keyof V & string)[];
  /** Props of a text field bound to `key`. */
  text: (key: KeysOf<V, string>) => {
    value: string;
    onChange: (v: string) => void;
    lock: Lock;
    onToggleLock: () => void;
    error: string | null;
    mixed: boolean;
  };
  /** Props of a chip field bound to `key`. */
  chips: (key: KeysOf<V, string[]>) => {
    value: string[];
    onChange: (v: string[]) => void;
    lock: Lock;
    onToggleLock: () => void;
    error: string | null;
    mixed: boolean;
  };
  /** Sets a value and forgets the server's refusal of it. */
  edit: <K extends keyof V & string>(key: K, value: V[K]) => void;
  /** A failure that concerns no field, for the dialog's alert. */
  generalError: string | null;
  /**
   * Shows a failed save: violations naming a field of this form go under it (returned, to open its tab), anything else
   * in the dialog's alert.
   */
  report: (error: unknown) => (keyof V & string)[];
  clearErrors: () => void;
}

/**
 * One edit form: values and locks (form-state.ts), client checks (`problems`, recomputed each render) and the
 * server's answers to a failed save, shown on the field they concern.
 */
export function useEditForm<V extends object>(
  init: () => FormInit<V>,
  problems: (values: V) => Partial<Record<keyof V & string, MessageKey | null | undefined>>,
): EditForm<V> {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const form = useMetadataForm(init);
  const [submitted, setSubmitted] = useState(false);
  const [server, setServer] = useState<Partial<Record<keyof V & string, string>>>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const current = problems(form.values);
  const fields = Object.keys(form.values) as (keyof V & string)[];

  const errorOf = (key: keyof V & string): string | null => {
    const fromServer = server[key];
    if (fromServer) return fromServer;
    const problem = current[key];
    return problem && (submitted || form.isDirty(key)) ? t(problem) : null;
  };
  const edit = <K extends keyof V & string>(key: K, value: V[K]) => {
    if (server[key]) setServer((s) => ({ ...s, [key]: undefined }));
    setGeneralError(null);
    form.set(key, value);
  };
  const bind = <K extends keyof V & string>(key: K) => ({
    value: form.values[key],
    onChange: (v: V[K]) => edit(key, v),
    lock: form.locks[key],
    onToggleLock: () => form.toggleLock(key),
    error: errorOf(key),
    mixed: form.isMixed(key),
  });

  return {
    ...form,
    submitted,
    setSubmitted,
    errorOf,
    serverErrorOf: (key) => server[key] ?? null,
    hasError: (keys) => keys.some((k) => !!server[k] || (submitted && !!current[k])),
    invalid: fields.filter((k) => !!current[k]),
    text: (key) => bind(key) as unknown as ReturnType<EditForm<V>['text']>,
    chips: (key) => bind(key) as unknown as ReturnType<EditForm<V>['chips']>,
    edit,
    generalError,
    report: (error) => {
      const hit: (keyof V & string)[] = [];
      const next: Partial<Record<keyof V & string, string>> = {};
      const unmatched: string[] = [];
      if (error instanceof ApiError && error.violations.length) {
        for (const v of error.violations) {
          const field = violationField(v.fieldName, fields);
          const message = translateServerMessage(t, v.message);
          if (field) {
            next[field] = message;
            hit.push(field);
          } else unmatched.push(`${v.fieldName}: ${message}`);
        }
      }
      setServer(next);
      setGeneralError(unmatched.length ? unmatched.join('\n') : hit.length ? null : errorText(error));
      return hit;
    },
    clearErrors: () => {
      setServer({});
      setGeneralError(null);
    },
  };
}

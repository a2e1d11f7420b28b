import { useState } from 'react';

/** A lock toggle's state; null when editing several items whose locks differ. */
export type Lock = boolean | null;

export interface FormInit<V extends object> {
  values: V;
  locks: Record<keyof V, Lock>;
  /** Fields whose values differ between the edited items: they start empty and show "Mixed". */
  mixed?: Partial<Record<keyof V, boolean>>;
}

export interface FormState<V extends object> {
  init: FormInit<V>;
  values: V;
  locks: Record<keyof V, Lock>;
  touched: ReadonlySet<keyof V>;
}

export const initialState = <V extends object>(init: FormInit<V>): FormState<V> => ({
  init,
  values: init.values,
  locks: init.locks,
  touched: new Set(),
});

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Editing a field locks it, so a metadata refresh will not overwrite the user's value (ui.md §12). */
export function setValue<V extends object, K extends keyof V>(state: FormState<V>, key: K, value: V[K]): FormState<V> {
  const touched = new Set(state.touched).add(key);
  return { ...state, values: { ...state.values, [key]: value }, locks: { ...state.locks, [key]: true }, touched };
}

/** Open → locked → open; a mixed lock becomes locked. */
export function toggleLock<V extends object>(state: FormState<V>, key: keyof V): FormState<V> {
  return { ...state, locks: { ...state.locks, [key]: state.locks[key] !== true } };
}

/** Whether the field's value is to be sent: changed from the start, or for a mixed field, edited at all. */
export function isDirty<V extends object>(state: FormState<V>, key: keyof V): boolean {
  if (state.init.mixed?.[key]) return state.touched.has(key);
  return !same(state.values[key], state.init.values[key]);
}

/** A mixed field nobody edited yet: shown empty with the "Mixed" placeholder. */
export const isMixed = <V extends object>(state: FormState<V>, key: keyof V): boolean =>
  !!state.init.mixed?.[key] && !state.touched.has(key);

export type Changes<V> = { [K in keyof V]?: unknown } & Record<string, unknown>;

/**
 * The update body: each changed field with its lock, and the locks toggled on their own (`titleLock`). `convert`
 * turns a field's form value into what the API takes (text to number, "" to null…).
 */
export function changesOf<V extends object>(
  state: FormState<V>,
  convert: { [K in keyof V]?: (value: V[K]) => unknown } = {},
): Changes<V> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(state.values) as (keyof V & string)[]) {
    const lock = state.locks[key];
    if (isDirty(state, key)) {
      const c = convert[key];
      out[key] = c ? c(state.values[key]) : state.values[key];
      if (lock !== null) out[`${key}Lock`] = lock;
    } else if (lock !== null && lock !== state.init.locks[key]) {
      out[`${key}Lock`] = lock;
    }
  }
  return out as Changes<V>;
}

/** The lock shared by several items: the common value, or null when they differ. */
export function commonLock(locks: readonly boolean[]): Lock {
  if (locks.length === 0) return false;
  return locks.every((l) => l === locks[0]) ? locks[0]! : null;
}

/** The value shared by several items, or `mixed` when they differ. */
export function commonValue<T>(values: readonly T[], empty: T): { value: T; mixed: boolean } {
  if (values.length === 0) return { value: empty, mixed: false };
  const first = values[0]!;
  return values.every((v) => same(v, first)) ? { value: first, mixed: false } : { value: empty, mixed: true };
}

export interface MetadataForm<V extends object> {
  state: FormState<V>;
  values: V;
  locks: Record<keyof V, Lock>;
  set: <K extends keyof V>(key: K, value: V[K]) => void;
  toggleLock: (key: keyof V) => void;
  isMixed: (key: keyof V) => boolean;
  isDirty: (key: keyof V) => boolean;
  changes: (convert?: { [K in keyof V]?: (value: V[K]) => unknown }) => Changes<V>;
}

/** The state of one edit form, started once from `init` (the dialog remounts it for every opening). */
export function useMetadataForm<V extends object>(init: () => FormInit<V>): MetadataForm<V> {
  const [state, setState] = useState(() => initialState(init()));
  return {
    state,
    values: state.values,
    locks: state.locks,
    set: (key, value) => setState((s) => setValue(s, key, value)),
    toggleLock: (key) => setState((s) => toggleLock(s, key)),
    isMixed: (key) => isMixed(state, key),
    isDirty: (key) => isDirty(state, key),
    changes: (convert) => changesOf(state, convert),
  };
}

import { createHmac, randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

/**
 * Argon2id with OWASP's minimum profile (19 MiB, 2 passes, 1 lane): about 20 ms a hash,
 * which keeps a login cheap for us and a guess expensive for an attacker.
 */
const OPTIONS: Options = {
  algorithm: 2 as Algorithm, // Argon2id (a const enum in the typings, so not importable as a value)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/*
 * Clients that send HTTP Basic with every request (Mihon, Panels, OPDS readers, KOReader) would pay a whole Argon2
 * verification, ~20 ms of CPU and 19 MiB, for every page they load. A success is therefore remembered for a few
 * minutes, under a keyed digest of the stored hash and the password: a changed password has a new hash, so an old
 * entry never matches it, and failures are never remembered, so a guess costs what it did. The memo is this
 * process's own and bounded; another instance verifies once for itself (nothing to share, nothing to invalidate).
 */
const REMEMBER_SUCCESS_MS = 5 * 60_000;
const REMEMBERED_MAX = 1_000;
const digestKey = randomBytes(32);
/** Digest of (stored hash, password) → when the success stops counting; in insertion order, oldest first. */
const verified = new Map<string, number>();

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const digest = createHmac('sha256', digestKey).update(passwordHash).update('\0').update(password).digest('base64');
  const until = verified.get(digest);
  if (until !== undefined) {
    if (until > Date.now()) return true;
    verified.delete(digest);
  }
  let ok: boolean;
  try {
    ok = await verify(passwordHash, password);
  } catch {
    ok = false;
  }
  if (ok) {
    verified.set(digest, Date.now() + REMEMBER_SUCCESS_MS);
    if (verified.size > REMEMBERED_MAX) verified.delete(verified.keys().next().value as string);
  }
  return ok;
}

let dummy: Promise<string> | undefined;
/** Spends the time of a real verification, so an unknown e-mail answers as slowly as a wrong password. */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword('quire-dummy-password');
  await verifyPassword(await dummy, password);
  return false;
}

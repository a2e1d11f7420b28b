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

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Spends the time of a real verification, so an unknown e-mail answers as slowly as a wrong password. */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword('quire-dummy-password');
  await verifyPassword(await dummy, password);
  return false;
}

import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

/** CPU time (all of this process's threads, Argon2's included) that `work` costs, in microseconds. */
async function cpuOf(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

describe('verifyPassword', () => {
  it('verifies a client that sends its password with every request once, not with every request', async () => {
    const stored = await hashPassword('correct horse');
    const first = await cpuOf(async () => expect(await verifyPassword(stored, 'correct horse')).toBe(true));
    const twentyMore = await cpuOf(async () => {
      for (let i = 0; i < 20; i++) expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    });
    // One Argon2 verification (19 MiB, two passes) costs milliseconds; twenty remembered successes, microseconds.
    expect(twentyMore).toBeLessThan(first / 2);
  });

  it('never remembers a failure, nor a success for another stored hash', async () => {
    const stored = await hashPassword('old password');
    expect(await verifyPassword(stored, 'old password')).toBe(true);
    expect(await verifyPassword(stored, 'wrong')).toBe(false);
    expect(await verifyPassword(stored, 'old password ')).toBe(false);
    // The password was changed: the old one no longer opens the new hash, the new one does.
    const changed = await hashPassword('new password');
    expect(await verifyPassword(changed, 'old password')).toBe(false);
    expect(await verifyPassword(changed, 'new password')).toBe(true);
    expect(await verifyPassword('not a hash', 'old password')).toBe(false);
  });
});

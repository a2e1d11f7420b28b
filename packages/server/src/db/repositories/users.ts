import { atomically, type Db } from '../database.js';
import type { UserRepository } from '../../domain/ports.js';
import { ROLES } from '../../domain/user.js';
import type { StoredUser } from '../../domain/account.js';

type UserRow = {
  id: string;
  email: string;
  password_hash: string;
  shared_all_libraries: number | boolean;
  age_restriction: number | null;
  age_restriction_allow_only: number | boolean | null;
  created_date: string;
  last_modified_date: string;
};

export class KyselyUserRepository implements UserRepository {
  constructor(private readonly db: Db) {}

  async count(t: Db = this.db): Promise<number> {
    const row = await t
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number | bigint>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(id: string, t: Db = this.db): Promise<StoredUser | undefined> {
    const row = await t.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
    return row && (await this.hydrate([row], t))[0];
  }

  /** Case-insensitive. */
  async findByEmail(email: string, t: Db = this.db): Promise<StoredUser | undefined> {
    const row = await t
      .selectFrom('user')
      .selectAll()
      .where('email_lower', '=', email.toLowerCase())
      .executeTakeFirst();
    return row && (await this.hydrate([row], t))[0];
  }

  async list(t: Db = this.db): Promise<StoredUser[]> {
    const rows = await t.selectFrom('user').selectAll().orderBy('email_lower').execute();
    return this.hydrate(rows, t);
  }

  /** The user with roles and sharing, in one transaction. */
  async insert(user: StoredUser): Promise<void> {
    await atomically(this.db, async (t) => {
      await t
        .insertInto('user')
        .values({
          id: user.id,
          email: user.email,
          email_lower: user.email.toLowerCase(),
          password_hash: user.passwordHash,
          ...restrictionColumns(user),
          created_date: user.createdDate,
          last_modified_date: user.lastModifiedDate,
        })
        .execute();
      await this.writeCollections(user, t);
    });
  }

  /** Rewrites everything but the e-mail, the password and the creation date. */
  async update(user: StoredUser): Promise<void> {
    await atomically(this.db, async (t) => {
      await t
        .updateTable('user')
        .set({ ...restrictionColumns(user), last_modified_date: user.lastModifiedDate })
        .where('id', '=', user.id)
        .execute();
      await t.deleteFrom('user_role').where('user_id', '=', user.id).execute();
      await t.deleteFrom('user_library_sharing').where('user_id', '=', user.id).execute();
      await t.deleteFrom('user_sharing_label').where('user_id', '=', user.id).execute();
      await this.writeCollections(user, t);
    });
  }

  async setPassword(id: string, passwordHash: string, at: Date, t: Db = this.db): Promise<void> {
    const now = at.toISOString();
    await t
      .updateTable('user')
      .set({ password_hash: passwordHash, last_modified_date: now })
      .where('id', '=', id)
      .execute();
  }

  /** Roles, sharing, sessions and API keys go with the user (foreign keys cascade). */
  async delete(id: string, t: Db = this.db): Promise<void> {
    await t.deleteFrom('user').where('id', '=', id).execute();
  }

  private async writeCollections(user: StoredUser, t: Db): Promise<void> {
    if (user.roles.length)
      await t
        .insertInto('user_role')
        .values(user.roles.map((role) => ({ user_id: user.id, role })))
        .execute();
    if (user.sharedLibraryIds.length)
      await t
        .insertInto('user_library_sharing')
        .values(user.sharedLibraryIds.map((library_id) => ({ user_id: user.id, library_id })))
        .execute();
    const labels = [
      ...user.labelsAllow.map((label) => ({ user_id: user.id, label, allow: 1 })),
      ...user.labelsExclude.map((label) => ({ user_id: user.id, label, allow: 0 })),
    ];
    if (labels.length) await t.insertInto('user_sharing_label').values(labels).execute();
  }

  private async hydrate(rows: UserRow[], t: Db): Promise<StoredUser[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const [roles, libraries, labels] = await Promise.all([
      t.selectFrom('user_role').select(['user_id', 'role']).where('user_id', 'in', ids).execute(),
      t
        .selectFrom('user_library_sharing')
        .select(['user_id', 'library_id'])
        .where('user_id', 'in', ids)
        .orderBy('library_id')
        .execute(),
      t
        .selectFrom('user_sharing_label')
        .select(['user_id', 'label', 'allow'])
        .where('user_id', 'in', ids)
        .orderBy('label')
        .execute(),
    ]);
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      passwordHash: r.password_hash,
      roles: ROLES.filter((role) => roles.some((x) => x.user_id === r.id && x.role === role)),
      sharedAllLibraries: Boolean(r.shared_all_libraries),
      sharedLibraryIds: libraries.filter((x) => x.user_id === r.id).map((x) => x.library_id),
      ageRestriction:
        r.age_restriction === null
          ? null
          : { age: r.age_restriction, restriction: r.age_restriction_allow_only ? 'ALLOW_ONLY' : 'EXCLUDE' },
      labelsAllow: labels.filter((x) => x.user_id === r.id && Boolean(x.allow)).map((x) => x.label),
      labelsExclude: labels.filter((x) => x.user_id === r.id && !x.allow).map((x) => x.label),
      createdDate: r.created_date,
      lastModifiedDate: r.last_modified_date,
    }));
  }
}

function restrictionColumns(user: StoredUser) {
  return {
    shared_all_libraries: user.sharedAllLibraries ? 1 : 0,
    age_restriction: user.ageRestriction?.age ?? null,
    age_restriction_allow_only: user.ageRestriction ? (user.ageRestriction.restriction === 'ALLOW_ONLY' ? 1 : 0) : null,
  };
}

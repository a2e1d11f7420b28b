import { newId } from '../domain/ids.js';
import { QuireError, badRequest, forbidden, invalid, notFound } from '../domain/errors.js';
import { ROLES, isAdmin, type AgeRestriction, type CurrentUser, type Role } from '../domain/user.js';
import type { StoredUser } from '../domain/account.js';
import type { AuthenticationActivityRepository, UnitOfWork, UserRepository } from '../domain/ports.js';
import type { ClientInfo } from './authentication-activity.js';
import { hashPassword } from './passwords.js';
import type { RememberMeTokens } from './remember-me.js';
import type { Sessions } from './sessions.js';

const EMAIL = /^.+@.+\..+$/s;
const DEFAULT_ROLES: Role[] = ['FILE_DOWNLOAD', 'PAGE_STREAMING'];

/** As requests give it: `NONE` (or null) removes the restriction. Restriction names in any case. */
export interface AgeRestrictionInput {
  age: number;
  restriction: string;
}

export interface NewUser {
  email: string;
  password: string;
  /** Omitted: FILE_DOWNLOAD + PAGE_STREAMING. Unknown names are dropped. */
  roles?: string[] | undefined;
  ageRestriction?: AgeRestrictionInput | null | undefined;
  labelsAllow?: string[] | null | undefined;
  labelsExclude?: string[] | null | undefined;
  /** Omitted: all libraries. */
  sharedLibraries?: { all: boolean; libraryIds: string[] } | null | undefined;
}

/** Omitted = unchanged. */
export interface UserPatch {
  roles?: string[] | undefined;
  sharedLibraries?: { all: boolean; libraryIds: string[] } | undefined;
  ageRestriction?: AgeRestrictionInput | null | undefined;
  labelsAllow?: string[] | null | undefined;
  labelsExclude?: string[] | null | undefined;
}

/** User accounts: claim, creation, changes, deletion, passwords (api.md §2.4, §2.11, §3.7). */
export class Users {
  constructor(
    private readonly d: {
      uow: UnitOfWork;
      users: UserRepository;
      activity: AuthenticationActivityRepository;
      sessions: Sessions;
      rememberMe: RememberMeTokens;
      /** Throws unless `password` is the user's current one (Authenticator.confirmPassword). */
      confirmPassword: (user: StoredUser, password: string, client: ClientInfo) => Promise<void>;
      /** New passwords are at least this many characters long (QUIRE_PASSWORD_MIN_LENGTH). */
      passwordMinLength: number;
      now: () => number;
    },
  ) {}

  async isClaimed(): Promise<boolean> {
    return (await this.d.users.count()) > 0;
  }

  /** First run: the first user, with every role. Violations use Komga's `claimServer.*` field names. */
  async claim(email: string | undefined, password: string | undefined): Promise<StoredUser> {
    const violations = [];
    if (email === undefined || !EMAIL.test(email))
      violations.push({ fieldName: 'claimServer.email', message: 'must be a well-formed email address' });
    const passwordProblem = this.newPasswordProblem(password ?? '');
    if (passwordProblem) violations.push({ fieldName: 'claimServer.password', message: passwordProblem });
    if (violations.length) throw invalid(violations);
    const user = await this.build({ email: email!, password: password!, roles: [...ROLES] });
    // Count and insert in one transaction, so two simultaneous claims cannot both win.
    await this.d.uow.run(async ({ users }) => {
      if ((await users.count()) > 0) throw badRequest('This server has already been claimed');
      await users.insert(user);
    });
    return user;
  }

  async create(input: NewUser): Promise<StoredUser> {
    const violations = [];
    if (!EMAIL.test(input.email))
      violations.push({ fieldName: 'email', message: 'must be a well-formed email address' });
    const passwordProblem = this.newPasswordProblem(input.password);
    if (passwordProblem) violations.push({ fieldName: 'password', message: passwordProblem });
    if (violations.length) throw invalid(violations);
    const user = await this.build(input);
    await this.d.uow.run(async ({ users }) => {
      if (await users.findByEmail(user.email)) throw emailTaken();
      await users.insert(user);
    });
    return user;
  }

  list(): Promise<StoredUser[]> {
    return this.d.users.list();
  }

  async get(id: string): Promise<StoredUser> {
    return (await this.d.users.find(id)) ?? Promise.reject(notFound());
  }

  findByEmail(email: string): Promise<StoredUser | undefined> {
    return this.d.users.findByEmail(email);
  }

  /** ADMIN, never on himself. Expires the user's sessions when what he may see changed. */
  async update(actor: CurrentUser, id: string, patch: UserPatch): Promise<void> {
    if (!isAdmin(actor)) throw forbidden();
    if (actor.id === id) throw forbidden();
    const before = await this.get(id);
    const after: StoredUser = { ...before, lastModifiedDate: new Date(this.d.now()).toISOString() };
    if (patch.roles !== undefined) after.roles = toRoles(patch.roles);
    if (patch.sharedLibraries !== undefined) {
      after.sharedAllLibraries = patch.sharedLibraries.all;
      after.sharedLibraryIds = patch.sharedLibraries.all ? [] : unique(patch.sharedLibraries.libraryIds);
    }
    if (patch.ageRestriction !== undefined) after.ageRestriction = toAgeRestriction(patch.ageRestriction);
    if (patch.labelsAllow !== undefined) after.labelsAllow = toLabels(patch.labelsAllow);
    if (patch.labelsExclude !== undefined) after.labelsExclude = toLabels(patch.labelsExclude);
    await this.d.users.update(after);
    if (accessChanged(before, after)) await this.d.sessions.expireAll(id);
  }

  /** ADMIN, never himself. Roles, sharing, sessions, API keys and activity go with the user. */
  async delete(actor: CurrentUser, id: string): Promise<void> {
    if (!isAdmin(actor)) throw forbidden();
    if (actor.id === id) throw forbidden();
    await this.get(id);
    await this.d.uow.run(async ({ activity, users }) => {
      await activity.deleteByUser(id);
      await users.delete(id);
    });
    await this.d.sessions.expireAll(id);
  }

  /**
   * ADMIN or self. Every remember-me token of the user ends. An admin changing someone else's password ends
   * that user's sessions (api.md §2.11). A user changing his own must give his current password, unless this
   * very request proved it (HTTP Basic), and ends his other sessions (Komga keeps them): whoever stole one of
   * them must not keep it, nor be able to lock the owner out by changing the password without knowing it.
   */
  async changePassword(
    actor: CurrentUser,
    id: string,
    change: { password: string; currentPassword?: string | undefined },
    context: { client: ClientInfo; passwordProven: boolean },
  ): Promise<void> {
    const self = actor.id === id;
    if (!self && !isAdmin(actor)) throw forbidden();
    const problem = this.newPasswordProblem(change.password);
    if (problem) throw invalid([{ fieldName: 'password', message: problem }]);
    const user = await this.get(id);
    if (self && !context.passwordProven) {
      if (!change.currentPassword) throw invalid([{ fieldName: 'currentPassword', message: 'must not be blank' }]);
      await this.d.confirmPassword(user, change.currentPassword, context.client);
    }
    await this.d.users.setPassword(id, await hashPassword(change.password), new Date(this.d.now()));
    await this.d.rememberMe.revokeAll(id);
    await this.d.sessions.expireAll(id, self ? actor.sessionId : undefined);
  }

  /** Why a new password is refused, or null: blank, or shorter than the minimum (in characters, not bytes). */
  private newPasswordProblem(password: string): string | null {
    if (!password.trim()) return 'must not be blank';
    const min = this.d.passwordMinLength;
    if ([...password].length < min) return `must be at least ${min} characters long`;
    return null;
  }

  private async build(input: NewUser): Promise<StoredUser> {
    const now = this.d.now();
    const date = new Date(now).toISOString();
    const all = input.sharedLibraries ? input.sharedLibraries.all : true;
    return {
      id: newId(now),
      email: input.email,
      passwordHash: await hashPassword(input.password),
      roles: input.roles === undefined ? [...DEFAULT_ROLES] : toRoles(input.roles),
      sharedAllLibraries: all,
      sharedLibraryIds: all || !input.sharedLibraries ? [] : unique(input.sharedLibraries.libraryIds),
      ageRestriction: toAgeRestriction(input.ageRestriction ?? null),
      labelsAllow: toLabels(input.labelsAllow ?? null),
      labelsExclude: toLabels(input.labelsExclude ?? null),
      createdDate: date,
      lastModifiedDate: date,
    };
  }
}

/** The authenticated caller as routes see him. */
export function toCurrentUser(user: StoredUser, via: { sessionId?: string; apiKeyId?: string } = {}): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    roles: new Set(user.roles),
    sharedAllLibraries: user.sharedAllLibraries,
    sharedLibraryIds: user.sharedLibraryIds,
    ageRestriction: user.ageRestriction,
    labelsAllow: user.labelsAllow,
    labelsExclude: user.labelsExclude,
    ...via,
  };
}

const emailTaken = () => new QuireError(400, 'A user with this email already exists');

const unique = <T>(xs: readonly T[]) => [...new Set(xs)];

/** Known role names in any case, in the canonical order; unknown names are dropped. */
export function toRoles(names: readonly string[]): Role[] {
  const wanted = new Set(names.map((n) => n.trim().toUpperCase()));
  return ROLES.filter((r) => wanted.has(r));
}

export function toLabels(labels: readonly string[] | null): string[] {
  return unique((labels ?? []).map((l) => l.trim().toLowerCase()).filter(Boolean)).sort();
}

export function toAgeRestriction(input: AgeRestrictionInput | null): AgeRestriction | null {
  if (!input) return null;
  const restriction = input.restriction.toUpperCase();
  if (restriction === 'ALLOW_ONLY' || restriction === 'EXCLUDE') return { age: input.age, restriction };
  return null;
}

function accessChanged(a: StoredUser, b: StoredUser): boolean {
  const same = (x: readonly string[], y: readonly string[]) =>
    x.length === y.length && [...x].sort().every((v, i) => v === [...y].sort()[i]);
  return (
    !same(a.roles, b.roles) ||
    a.sharedAllLibraries !== b.sharedAllLibraries ||
    !same(a.sharedLibraryIds, b.sharedLibraryIds) ||
    a.ageRestriction?.age !== b.ageRestriction?.age ||
    a.ageRestriction?.restriction !== b.ageRestriction?.restriction ||
    !same(a.labelsAllow, b.labelsAllow) ||
    !same(a.labelsExclude, b.labelsExclude)
  );
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/db/database.js';
import { databaseOf } from '../support/postgres.js';
import { createRepositories, createUnitOfWork } from '../../src/db/unit-of-work.js';
import type { Repositories, UnitOfWork } from '../../src/domain/ports.js';

let dir: string;
let opened: OpenedDatabase;
let repos: Repositories;
let uow: UnitOfWork;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-uow-'));
  opened = await openDatabase(await databaseOf(dir));
  repos = createRepositories(opened.db);
  uow = createUnitOfWork(opened.db);
});
afterAll(async () => {
  await opened.close();
  await rm(dir, { recursive: true, force: true });
});

const stored = async (key: string) => (await repos.serverSettings.findAll()).get(key);

describe('the unit of work', () => {
  it('commits every write of the work when it resolves', async () => {
    await uow.run(async (tx) => {
      await tx.serverSettings.save({ A: '1' });
      await tx.serverSettings.save({ B: '2' });
    });
    expect([await stored('A'), await stored('B')]).toEqual(['1', '2']);
  });

  it('rolls every write back when the work throws, and passes the error on', async () => {
    const failing = uow.run(async (tx) => {
      await tx.serverSettings.save({ C: '3' });
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await stored('C')).toBeUndefined();
  });

  it('joins the open transaction when run inside another: one commit, one rollback', async () => {
    const inner: Repositories[] = [];
    await uow.run(async (outer) => {
      await outer.serverSettings.save({ D: '4' });
      await uow.run(async (tx) => {
        inner.push(tx);
        // The outer write is seen: the same transaction (a second one would wait for the first on SQLite).
        expect((await tx.serverSettings.findAll()).get('D')).toBe('4');
        await tx.serverSettings.save({ E: '5' });
      });
      expect(inner[0]).toBe(outer);
    });
    expect([await stored('D'), await stored('E')]).toEqual(['4', '5']);

    const failing = uow.run(async (outer) => {
      await outer.serverSettings.save({ F: '6' });
      await uow.run(async (tx) => {
        await tx.serverSettings.save({ G: '7' });
        throw new Error('inner refused');
      });
    });
    await expect(failing).rejects.toThrow('inner refused');
    expect([await stored('F'), await stored('G')]).toEqual([undefined, undefined]);
  });

  it('gives work started inside but run after the commit a transaction of its own', async () => {
    let later: Promise<void> | undefined;
    await uow.run(async (tx) => {
      await tx.serverSettings.save({ H: '8' });
      later = new Promise((resolve, reject) =>
        setTimeout(() => uow.run((t) => t.serverSettings.save({ I: '9' })).then(resolve, reject), 20),
      );
    });
    await later;
    expect([await stored('H'), await stored('I')]).toEqual(['8', '9']);
  });

  it('leaves the promises made after it alone (issue 18: no promise hooks between units of work)', async () => {
    // Node 20's AsyncLocalStorage marks every promise made while it is enabled with its store (a symbol-keyed
    // property, through V8's promise hooks, which make each promise several times dearer to make and await).
    // Node turns the hooks off in a microtask of its own: the next turn of the event loop sees them off.
    const marks = () => Object.getOwnPropertySymbols(new Promise(() => undefined)).length;
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    const before = marks();
    await uow.run((tx) => tx.serverSettings.save({ J: '10' }));
    await nextTurn();
    expect(marks()).toBe(before);
    const inside = uow.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return marks();
    });
    expect(await inside).toBeGreaterThan(before);
    await nextTurn();
    expect(marks()).toBe(before);
  });
});

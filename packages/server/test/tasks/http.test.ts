import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskRepository } from '../../src/db/repositories/tasks.js';
import { onPostgres } from '../support/postgres.js';
import { basic, claim, startServer, type TestServer } from '../support/server.js';

describe('DELETE /api/v1/tasks', () => {
  let s: TestServer;
  let admin: Awaited<ReturnType<typeof claim>>;
  beforeAll(async () => {
    s = await startServer();
    admin = await claim(s);
    const res = await s.fetch('/api/v2/users', {
      method: 'POST',
      headers: { Authorization: admin.authorization },
      json: { email: 'reader@example.org', password: 'reader-secret', roles: [] },
    });
    expect(res.status).toBe(201);
  });
  afterAll(() => s.close());

  // Writes the SQLite queue's rows; PostgreSQL mode's cancellation: test/tasks/pg-queue-and-bus.test.ts.
  it.skipIf(onPostgres())(
    'cancels the queued tasks for an admin and answers their number as a bare JSON integer',
    async () => {
      const tasks = s.app.tasks;
      const repository = new TaskRepository(s.app.deps.db);
      // A task of series S "running" elsewhere keeps the live pool away from the others of S.
      await s.app.deps.db.transaction().execute(async (tx) => {
        await repository.upsert(
          [{ uniqueId: 'RUNNING', kind: 'AnalyzeBook', priority: 4, groupId: 'S', payload: '{}' }],
          new Date().toISOString(),
          tx,
        );
        await repository.claim('RUNNING', 'elsewhere', tx);
      });
      await tasks.submit(['b1', 'b2', 'b3'].map((bookId) => ({ kind: 'AnalyzeBook', bookId, seriesId: 'S' })));
      expect((await tasks.counts()).count).toBe(4);

      const res = await s.fetch('/api/v1/tasks', { method: 'DELETE', headers: { Authorization: admin.authorization } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.text()).toBe('3');
      expect(await tasks.counts()).toEqual({ count: 1, countByType: { AnalyzeBook: 1 } });

      const again = await s.fetch('/api/v1/tasks', {
        method: 'DELETE',
        headers: { Authorization: admin.authorization },
      });
      expect(await again.json()).toBe(0);
      await repository.finish('RUNNING');
    },
  );

  it('refuses a user without the ADMIN role with 403, and an anonymous caller with 401', async () => {
    const reader = await s.fetch('/api/v1/tasks', {
      method: 'DELETE',
      headers: { Authorization: basic('reader@example.org', 'reader-secret') },
    });
    expect(reader.status).toBe(403);
    const anonymous = await s.fetch('/api/v1/tasks', {
      method: 'DELETE',
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
    expect(anonymous.status).toBe(401);
  });
});

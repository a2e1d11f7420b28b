import { createReadStream } from 'node:fs';
import { stat, statfs } from 'node:fs/promises';
import { arch, release, type } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { isAdmin } from '../../domain/user.js';
import { CURRENT_LOG_FILE, logDirOf } from '../../logging.js';
import { sendError } from '../plugins/errors.js';
import type { AppDeps } from '../deps.js';

/** Spring Boot's default disk-space threshold: DOWN below 10 MB free. */
const DISK_THRESHOLD = 10 * 1024 * 1024;

type Status = 'UP' | 'DOWN';
interface Component {
  status: Status;
  details?: Record<string, unknown>;
}

/** The Spring Boot actuator endpoints Komga's clients use (api.md §9.1). All ADMIN except health. */
export const actuatorRoutes: FastifyPluginAsync<AppDeps> = async (app, deps) => {
  const { config, settings } = deps;

  // Public, but a caller who sends credentials is authenticated so that an admin sees the components.
  app.get('/actuator/health', { onRequest: app.authenticateIfAny }, async (req, reply) => {
    const components: Record<string, Component> = {
      db: await dbHealth(),
      diskSpace: await diskHealth(config.dataDir),
      ping: { status: 'UP' },
    };
    const status: Status = Object.values(components).every((c) => c.status === 'UP') ? 'UP' : 'DOWN';
    reply.code(status === 'UP' ? 200 : 503).type('application/vnd.spring-boot.actuator.v3+json');
    return req.user && isAdmin(req.user) ? { status, components } : { status };
  });

  app.get('/actuator/info', { onRequest: app.requireRole('ADMIN') }, async (_req, reply) => {
    reply.type('application/vnd.spring-boot.actuator.v3+json');
    return {
      git: config.build.git,
      build: { artifact: 'quire', name: 'quire', version: config.build.version, group: 'quire' },
      java: runtimeInfo(),
      os: { name: type(), version: release(), arch: arch() },
    };
  });

  app.post('/actuator/shutdown', { onRequest: app.requireRole('ADMIN') }, async (_req, reply) => {
    reply.raw.once('finish', () => deps.shutdown());
    reply.type('application/vnd.spring-boot.actuator.v3+json');
    return { message: 'Shutting down, bye...' };
  });

  app.get('/actuator/logfile', { onRequest: app.requireRole('ADMIN') }, async (req, reply) => {
    const file = await currentLogFile(logDirOf(config.dataDir));
    if (!file) return sendError(reply, req, 404, 'Not Found');
    return reply.type('text/plain; charset=utf-8').send(createReadStream(file));
  });

  async function dbHealth(): Promise<Component> {
    try {
      await settings.get();
      return { status: 'UP', details: { database: 'SQLite', validationQuery: 'server settings read' } };
    } catch (err) {
      return { status: 'DOWN', details: { error: String(err) } };
    }
  }
};

/**
 * Komga's `java` section describes the JVM; Quire's runtime is Node.js on V8, described in the same shape so that
 * clients reading it find every field.
 */
function runtimeInfo() {
  const node = process.versions.node;
  return {
    version: node,
    vendor: { name: 'Node.js', version: process.version },
    runtime: { name: 'Node.js', version: node },
    jvm: { name: 'V8', vendor: 'Google', version: process.versions.v8 },
  };
}

async function diskHealth(path: string): Promise<Component> {
  try {
    const fs = await statfs(path);
    const total = fs.blocks * fs.bsize;
    const free = fs.bavail * fs.bsize;
    return {
      status: free >= DISK_THRESHOLD ? 'UP' : 'DOWN',
      details: { total, free, threshold: DISK_THRESHOLD, path, exists: true },
    };
  } catch (err) {
    return { status: 'DOWN', details: { path, exists: false, error: String(err) } };
  }
}

/** The log file being written now, or null before the first line reached it. */
async function currentLogFile(dir: string): Promise<string | null> {
  const file = join(dir, CURRENT_LOG_FILE);
  try {
    await stat(file);
    return file;
  } catch {
    return null;
  }
}

import { createReadStream } from 'node:fs';
import { stat, statfs } from 'node:fs/promises';
import { arch, release, type } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { managementOperations } from '@quire/api/operations';
import type { Config } from '../../config.js';
import type { SettingsStore } from '../../domain/settings.js';
import { isAdmin } from '../../domain/user.js';
import { CURRENT_LOG_FILE, logDirOf } from '../../logging.js';
import { sendError } from '../plugins/errors.js';
import type { Handlers, OperationIdsOf } from '../operations.js';

/** Spring Boot's default disk-space threshold: DOWN below 10 MB free. */
const DISK_THRESHOLD = 10 * 1024 * 1024;

type Status = 'UP' | 'DOWN';
interface Component {
  status: Status;
  details?: Record<string, unknown>;
}

const ACTUATOR_JSON = 'application/vnd.spring-boot.actuator.v3+json';

/** `GET /actuator/info` (api.md §9.1), the one actuator endpoint Komga's OpenAPI document lists. */
export function actuatorHandlers({
  build,
}: {
  build: Config['build'];
}): Handlers<OperationIdsOf<typeof managementOperations>> {
  return {
    getActuatorInfo: async (_req, reply) => {
      reply.type(ACTUATOR_JSON);
      return {
        git: build.git,
        build: { artifact: 'quire', name: 'quire', version: build.version, group: 'quire' },
        java: runtimeInfo(),
        os: { name: type(), version: release(), arch: arch() },
      };
    },
  };
}

export interface ActuatorRouteDeps {
  dataDir: string;
  settings: Pick<SettingsStore, 'get'>;
  /** Stops the process gracefully. */
  shutdown(): void;
}

/**
 * The other Spring Boot actuator endpoints Komga's clients use (api.md §9.1): health (public, details for ADMIN),
 * shutdown and the log file (ADMIN). Komga leaves them out of its OpenAPI document, so they stay plain routes
 * outside the operation table, as Spring Boot's management endpoints are outside Komga's API: documenting them in
 * /v3/api-docs would present them as Quire's own additions.
 */
export const actuatorRoutes: FastifyPluginAsync<ActuatorRouteDeps> = async (app, deps) => {
  const { dataDir, settings } = deps;

  // Public, but a caller who sends credentials is authenticated so that an admin sees the components.
  app.get('/actuator/health', { onRequest: app.authenticateIfAny }, async (req, reply) => {
    const components: Record<string, Component> = {
      db: await dbHealth(),
      diskSpace: await diskHealth(dataDir),
      ping: { status: 'UP' },
    };
    const status: Status = Object.values(components).every((c) => c.status === 'UP') ? 'UP' : 'DOWN';
    reply.code(status === 'UP' ? 200 : 503).type(ACTUATOR_JSON);
    return req.user && isAdmin(req.user) ? { status, components } : { status };
  });

  app.post('/actuator/shutdown', { onRequest: app.requireRole('ADMIN') }, async (_req, reply) => {
    reply.raw.once('finish', () => deps.shutdown());
    reply.type(ACTUATOR_JSON);
    return { message: 'Shutting down, bye...' };
  });

  app.get('/actuator/logfile', { onRequest: app.requireRole('ADMIN') }, async (req, reply) => {
    const file = await currentLogFile(logDirOf(dataDir));
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

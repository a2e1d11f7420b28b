import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort, startServer } from '../../../../bench/support/server.mjs';
import { loadConfig } from '../../src/config.js';

/*
 * Issue 20: the Dockerfile, compose.yaml and Caddyfile cannot run here (no container engine), so what they rely on is
 * checked against the repository and the real server: the runtime image's command is `npm start`'s, its healthcheck
 * command answers 0 against a started (built) server without logging in and 1 once it is gone, the compose services
 * share what must be shared, and Caddy balances over exactly those services without stickiness and without
 * buffering live events. Needs `npm run build` (npm test builds first).
 */

const root = resolve(import.meta.dirname, '../../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's stages, each a list of instructions: continuation lines joined, comment lines dropped. */
function dockerStages(text: string): Instruction[][] {
  const logical = text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const stages: Instruction[][] = [];
  for (const line of logical) {
    const keyword = line.split(/\s/, 1)[0]!.toUpperCase();
    if (keyword === 'FROM') stages.push([]);
    stages.at(-1)!.push({ keyword, args: line.slice(keyword.length).trim() });
  }
  return stages;
}

const stages = dockerStages(read('Dockerfile'));
const runtime = stages.at(-1)!;
const args = (keyword: string) => runtime.filter((i) => i.keyword === keyword).map((i) => i.args);
/** The arguments of the runtime stage's one `keyword` instruction. */
function single(keyword: string): string {
  const [only, ...more] = args(keyword);
  if (only === undefined || more.length > 0) throw new Error(`the runtime stage needs one ${keyword}`);
  return only;
}
const command = JSON.parse(single('CMD')) as string[];
/** `ENV a=1 b=2` lines of the runtime stage, as one record. */
const runtimeEnv = Object.fromEntries(
  args('ENV').flatMap((line) => line.split(/\s+/).map((pair) => pair.split('=') as [string, string])),
);
const healthcheckCommand = single('HEALTHCHECK').replace(/^(--\S+\s+)*CMD\s+/, '');

describe('Dockerfile', () => {
  it('builds in a stage of its own: npm ci, then the build of the server and the web client', () => {
    const build = stages.flat().filter((i) => i.keyword === 'RUN');
    expect(build.map((i) => i.args)).toEqual(expect.arrayContaining(['npm ci', 'npm run build']));
    expect(stages.length).toBeGreaterThan(1);
    expect(runtime.filter((i) => i.keyword === 'RUN').map((i) => i.args)).not.toContain('npm run build');
  });

  it("runs what `npm start` runs, as a user without rights, with glibc's arenas limited and the data dir a volume", () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(command.join(' ')).toBe(pkg.scripts.start);
    expect(single('USER')).not.toMatch(/^(root|0)(:|$)/);
    expect(runtimeEnv).toMatchObject({ MALLOC_ARENA_MAX: '2', QUIRE_DATA_DIR: '/data' });
    expect(args('VOLUME')).toEqual([runtimeEnv.QUIRE_DATA_DIR]);
    expect(args('EXPOSE')).toEqual([String(loadConfig({}).port)]);
    expect(runtimeEnv.QUIRE_PORT).toBe(single('EXPOSE'));
  });

  it('copies into the runtime image only built output and installed packages, which the build leaves here', () => {
    const copies = args('COPY');
    expect(copies.length).toBeGreaterThan(0);
    const sources = copies.flatMap((line) => {
      const words = line.split(/\s+/);
      expect(words[0], line).toMatch(/^--from=/);
      return words.slice(1, -1);
    });
    for (const source of sources) expect(existsSync(join(root, source.replace(/^\/app\//, ''))), source).toBe(true);
    // The command's script, and the web client the server serves, are among them.
    const script = command.at(-1)!;
    expect(sources.some((s) => script.startsWith(s.replace(/^\/app\//, '')))).toBe(true);
    expect(sources).toContain('/app/packages/web/dist');
  });

  describe('its healthcheck, against the built server started as the image starts it', () => {
    let dataDir: string;
    let server: Awaited<ReturnType<typeof startServer>>;
    const healthcheck = (port: number) =>
      promisify(execFile)('sh', ['-c', healthcheckCommand], {
        env: { ...process.env, ...runtimeEnv, QUIRE_PORT: String(port), QUIRE_CONTEXT_PATH: '' },
      });

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'quire-deploy-'));
      const port = await freePort();
      server = await startServer({
        dataDir,
        port,
        env: { ...runtimeEnv, QUIRE_DATA_DIR: dataDir, QUIRE_PORT: `${port}` },
      });
    });
    afterAll(async () => {
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('asks an endpoint that answers 200 without login, and succeeds', async () => {
      const path = /'(\/actuator\/health)'/.exec(healthcheckCommand)?.[1];
      expect(path).toBe('/actuator/health');
      const res = await fetch(`${server.base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'UP' });
      await expect(healthcheck(server.port)).resolves.toBeDefined();
    });

    it('fails once the server is gone', async () => {
      await server.stop();
      await expect(healthcheck(server.port)).rejects.toMatchObject({ code: 1 });
    });
  });
});

interface ComposeService {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  networks?: Record<string, { ipv4_address?: string }>;
}

/**
 * compose.yaml with its `${VAR}`, `${VAR:-default}` and `${VAR:?error}` replaced as Docker Compose replaces them from
 * `env`.
 */
function composeFile(env: Record<string, string>) {
  const text = read('compose.yaml').replace(
    /\$\{(\w+)(?::([-?])([^}]*))?\}/g,
    (_, name: string, kind, word: string) => {
      if (env[name]) return env[name];
      if (kind === '?') throw new Error(`${name}: ${word}`);
      return kind === '-' ? word : '';
    },
  );
  return parse(text, { merge: true }) as unknown;
}

describe('compose.yaml', () => {
  it('refuses to start without a database password', () => {
    expect(() => composeFile({})).toThrow('POSTGRES_PASSWORD');
  });

  const compose = composeFile({ POSTGRES_PASSWORD: 'secret' }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const service = (name: string): ComposeService => {
    const found = compose.services[name];
    if (!found) throw new Error(`compose.yaml has no service ${name}`);
    return found;
  };
  const quires = ['quire-1', 'quire-2'].map(service);
  const postgres = service('postgres');
  const caddy = service('caddy');
  const caddyfile = read('deploy/Caddyfile');
  /** The capture groups of `re`'s first match in `text`; an error when it does not match. */
  const groups = (re: RegExp, text: string): string[] => {
    const m = re.exec(text);
    if (!m) throw new Error(`no ${re} in:\n${text}`);
    return m.slice(1).map((g) => g ?? '');
  };

  it('runs PostgreSQL 15, two Quire instances of this repository on it, and Caddy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['caddy', 'postgres', 'quire-1', 'quire-2']);
    expect(postgres.image).toMatch(/^postgres:15\b/);
    expect(caddy.image).toMatch(/^caddy:2\b/);
    const pg = postgres.environment ?? {};
    // Quire refuses a database that does not sort byte by byte (db/database.ts checkCollation).
    expect(pg.POSTGRES_INITDB_ARGS).toMatch(/--locale=C\b/);
    expect(pg.POSTGRES_INITDB_ARGS).toMatch(/--encoding=UTF8\b/);
    for (const quire of quires) {
      expect(quire.build).toBe('.');
      const url = new URL(quire.environment?.QUIRE_DATABASE_URL ?? '');
      expect(url.protocol).toBe('postgres:');
      expect([url.hostname, url.port, url.username, url.password, url.pathname]).toEqual([
        'postgres',
        '5432',
        pg.POSTGRES_USER,
        pg.POSTGRES_PASSWORD,
        `/${pg.POSTGRES_DB}`,
      ]);
      expect(quire.depends_on?.postgres?.condition).toBe('service_healthy');
    }
  });

  it('gives both instances the same data volume, each its own logs, and the library read-only', () => {
    const mounts = quires.map((quire) => (quire.volumes ?? []).map((v) => v.split(':')));
    const source = (target: string) => mounts.map((m) => m.find(([, t]) => t === target)?.[0]);
    const [data1, data2] = source(runtimeEnv.QUIRE_DATA_DIR!);
    expect(data1).toBeDefined();
    expect(data2).toBe(data1);
    expect(compose.volumes).toHaveProperty(data1!);
    const [logs1, logs2] = source(`${runtimeEnv.QUIRE_DATA_DIR}/logs`);
    expect(logs1).toBeDefined();
    expect(logs2).toBeDefined();
    expect(logs2).not.toBe(logs1);
    for (const m of mounts) expect(m.find(([, target]) => target === '/library')?.[2]).toBe('ro');
  });

  it('sets only documented variables, and trusts the forwarded headers of Caddy alone', () => {
    const readme = read('README.md');
    for (const quire of quires)
      for (const name of Object.keys(quire.environment ?? {})) expect(readme, name).toContain(`\`${name}\``);
    const caddyAddress = caddy.networks?.default?.ipv4_address;
    expect(caddyAddress).toBeDefined();
    for (const quire of quires) expect(quire.environment?.QUIRE_TRUSTED_PROXIES).toBe(caddyAddress);
  });

  it("mounts the Caddyfile, which balances round robin over exactly the instances' port, with no stickiness", () => {
    expect(caddy.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    expect(caddy.ports).toEqual(['25600:80']);
    expect(caddyfile).toMatch(/^:80 \{/m);
    const [upstreams] = groups(/^\s*reverse_proxy\s+(.+?)\s*\{/m, caddyfile);
    expect(upstreams!.split(/\s+/)).toEqual(['quire-1', 'quire-2'].map((name) => `${name}:${single('EXPOSE')}`));
    expect(caddyfile).toMatch(/^\s*lb_policy round_robin$/m);
    expect(caddyfile).not.toMatch(/lb_policy (cookie|ip_hash|client_ip_hash|header|uri_hash)/);
    expect(caddyfile).toMatch(/^\s*health_uri \/actuator\/health$/m);
    for (const name of ['quire-1', 'quire-2']) expect(caddy.depends_on?.[name]?.condition).toBe('service_healthy');
  });

  it('passes live events on as they are written, and waits for them longer than the server stays silent', () => {
    expect(caddyfile).toMatch(/^\s*flush_interval -1$/m);
    const [heartbeatMs] = groups(/HEARTBEAT_MS = ([\d_]+)/, read('packages/server/src/http/routes/sse.ts'));
    const [amount, unit] = groups(/^\s*read_timeout (\d+)([sm])$/m, caddyfile);
    const readTimeoutMs = Number(amount) * (unit === 'm' ? 60_000 : 1000);
    expect(readTimeoutMs).toBeGreaterThan(2 * Number(heartbeatMs!.replace(/_/g, '')));
  });

  const caddyInstalled = (() => {
    try {
      execFileSync('caddy', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  // Caddy is not a dependency of the tests (CI does not install it); where it is installed, it checks the file.
  it.skipIf(!caddyInstalled)('is a configuration Caddy accepts (caddy validate, where Caddy is installed)', () => {
    expect(() =>
      execFileSync('caddy', ['validate', '--adapter', 'caddyfile', '--config', join(root, 'deploy/Caddyfile')], {
        stdio: 'pipe',
      }),
    ).not.toThrow();
  });
});

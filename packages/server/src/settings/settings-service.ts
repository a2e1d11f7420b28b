import type { ServerSettingsValues, SettingsStore } from '../domain/settings.js';
import { newRememberMeKey } from './server-settings.js';

/** The settings that only apply after a restart. */
export type RestartSetting = 'serverPort' | 'serverContextPath';

/** A setting that the configuration and the database may both give: the database wins. */
export interface MultiSource<T> {
  configurationSource: T;
  databaseSource: T | null;
  effectiveValue: T;
}

export interface SettingsView extends Omit<
  ServerSettingsValues,
  'rememberMeKey' | 'serverPort' | 'serverContextPath' | 'kepubifyPath'
> {
  serverPort: MultiSource<number>;
  serverContextPath: MultiSource<string>;
  kepubifyPath: MultiSource<string | null>;
}

/** The settings that say where the server is reached. */
type Located = Pick<ServerSettingsValues, 'serverPort' | 'serverContextPath'>;

export type SettingsChange = Partial<Omit<ServerSettingsValues, 'rememberMeKey'>> & { renewRememberMeKey?: boolean };

export interface ServerSettingsServiceDeps {
  store: SettingsStore;
  /** What the configuration (environment, file) gives; the database's values override it. */
  configured: { port: number; contextPath: string; kepubifyPath: string | null };
  /** The settings this process started with: the port and context path it serves. */
  startedWith: ServerSettingsValues;
  /** The task workers of this process, resized at once when the pool size changes. */
  taskPool: { resize(size: number): void };
}

/**
 * Server settings as the administrator sees and changes them (api.md §9.4). Everything applies at once except the
 * port and the context path, which wait for a restart (docs/architecture.md): `pendingRestart` compares the
 * database with what this process started with.
 */
export class ServerSettingsService {
  constructor(private readonly deps: ServerSettingsServiceDeps) {}

  async view(): Promise<SettingsView> {
    const { rememberMeKey: _secret, ...s } = await this.deps.store.get();
    return {
      ...s,
      serverPort: {
        configurationSource: this.deps.configured.port,
        databaseSource: s.serverPort,
        effectiveValue: this.port(s),
      },
      serverContextPath: {
        configurationSource: this.deps.configured.contextPath,
        databaseSource: s.serverContextPath,
        effectiveValue: this.contextPath(s),
      },
      kepubifyPath: {
        configurationSource: this.deps.configured.kepubifyPath,
        databaseSource: s.kepubifyPath,
        effectiveValue: s.kepubifyPath ?? this.deps.configured.kepubifyPath,
      },
    };
  }

  /** Applies the change; answers the settings that now wait for a restart. */
  async update({ renewRememberMeKey, ...change }: SettingsChange): Promise<RestartSetting[]> {
    const patch: Partial<ServerSettingsValues> = { ...change };
    if (renewRememberMeKey) patch.rememberMeKey = newRememberMeKey();
    const updated = await this.deps.store.update(patch);
    if (change.taskPoolSize !== undefined) this.deps.taskPool.resize(change.taskPoolSize);
    return this.pending(updated);
  }

  async pendingRestart(): Promise<RestartSetting[]> {
    return this.pending(await this.deps.store.get());
  }

  private pending(now: ServerSettingsValues): RestartSetting[] {
    const pending: RestartSetting[] = [];
    if (this.port(now) !== this.port(this.deps.startedWith)) pending.push('serverPort');
    if (this.contextPath(now) !== this.contextPath(this.deps.startedWith)) pending.push('serverContextPath');
    return pending;
  }

  private port = (s: Located) => s.serverPort ?? this.deps.configured.port;
  private contextPath = (s: Located) => s.serverContextPath ?? this.deps.configured.contextPath;
}

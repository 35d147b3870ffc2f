/** Settings from the environment, with the defaults the README promises. */
export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  sqliteFile: string;
  seed: boolean;
  clientDir: string;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    sqliteFile: env.SQLITE_FILE ?? 'data/marketplace.sqlite',
    seed: env.SEED !== '0',
    clientDir: env.CLIENT_DIR ?? 'dist',
  };
}

/**
 * `npm start`: builds the client when it is missing or older than its sources, then serves client and
 * API on one port (PORT, default 3000; HOST, default 127.0.0.1).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { startServer } from '../src/server/main.ts';
import { readConfig } from '../src/server/config.ts';

/** What the client bundle is built from. */
const SOURCES = ['index.html', 'vite.config.ts', 'package.json', 'public', 'src/client', 'src/features', 'src/manifest', 'src/domain', 'resources'];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const config = readConfig();
const built = join(config.clientDir, 'index.html');
if (!existsSync(built) || Math.max(...SOURCES.map(newest)) > statSync(built).mtimeMs) {
  console.log('Building the client…');
  await build({ logLevel: 'warn', build: { outDir: config.clientDir } });
}
await startServer(config);

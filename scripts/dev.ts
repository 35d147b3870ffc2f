/** `npm run dev`: the API on API_PORT (default 3001) and Vite's dev server in front of it. */
import { createServer } from 'vite';
import { startServer } from '../src/server/main.ts';
import { readConfig } from '../src/server/config.ts';

const apiPort = Number(process.env.API_PORT ?? 3001);
await startServer({ ...readConfig(), port: apiPort, clientDir: '.no-client' });
const vite = await createServer({ server: { port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' } });
await vite.listen();
vite.printUrls();

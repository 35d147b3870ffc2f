/** A server node as node-main.ts starts one, serving the jobs tests' fixture resources too (jobs-fixture.ts). */
import { startServer } from '../../src/server/main.ts';
import { readConfig } from '../../src/server/config.ts';
import { jobsRegistry } from './jobs-fixture.ts';

await startServer(readConfig(), jobsRegistry);

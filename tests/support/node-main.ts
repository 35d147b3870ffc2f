/**
 * One server node as production runs it (`startServer`: migrate, seed an empty database, listen, close
 * on SIGTERM), configured by the environment tests/support/nodes.ts gives it.
 */
import { startServer } from '../../src/server/main.ts';

await startServer();

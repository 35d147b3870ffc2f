/**
 * Shutting a server down on SIGTERM/SIGINT without dropping anyone:
 * 1. no new connections are accepted (the listening socket closes);
 * 2. a request arriving on a connection that is already open (keep-alive) is answered 503 with
 *    `Connection: close` (Fastify's `return503OnClosing`), so the client retries elsewhere;
 * 3. requests in flight finish, and are told `Connection: close` so their clients do not reuse the socket;
 * 4. once nothing is in flight, idle keep-alive connections are closed and the app closes (the database
 *    after the last request, by the app's `onClose` hooks);
 * 5. whatever still runs at the time limit (10 s) is cut off, and the process exits regardless.
 *
 * Why not just `app.close()`: Node's `http.Server#close()` (since Node 19) closes every idle keep-alive
 * socket at once, so a client that sends its next request on one at that moment gets ECONNRESET, and
 * later ones find nothing to answer them 503. Here those sockets stay open until the requests in flight
 * are done: meanwhile every request that reaches the server gets a real answer.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Slots } from './slots.ts';

/** The longest a shutdown may take, signal to exit. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Of the time limit, what is left after connections are cut off for the app's own `onClose` hooks (the database). */
const CLOSE_HOOKS_MS = 1_000;

export interface ShutdownOptions {
  /** The longest the shutdown may take (default `SHUTDOWN_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Where progress is told (default `console.log`). */
  log?: (message: string) => void;
}

/** How a shutdown ended: `clean` when everything finished, `forced` when connections were cut off. */
export type ShutdownResult = 'clean' | 'forced';

/**
 * Prepares `app` (already listening) for a graceful shutdown and answers the function that runs it
 * (once; calling it again answers the same promise). Connections are cut off after
 * `timeoutMs - 1 s` when requests are still running; the promise settles when the app has closed.
 */
export function gracefulShutdown(app: FastifyInstance, { timeoutMs = SHUTDOWN_TIMEOUT_MS, log = console.log }: ShutdownOptions = {}) {
  const server = app.server;
  // Requests being answered; tracked from now on (the server has just started listening).
  const inFlight = new Slots<ServerResponse>();
  let whenDrained: (() => void) | undefined;
  server.on('request', (_request, response: ServerResponse) => {
    const slot = inFlight.add(response);
    response.once('close', () => {
      inFlight.take(slot);
      if (inFlight.size === 0) whenDrained?.();
    });
  });

  let running: Promise<ShutdownResult> | undefined;
  return function shutdown(): Promise<ShutdownResult> {
    running ??= new Promise<ShutdownResult>((resolve, reject) => {
      let result: ShutdownResult = 'clean';
      const closeIdle = server.closeIdleConnections.bind(server);
      // `server.close()`, called by `app.close()` once Fastify answers 503 to new requests, calls this to
      // drop idle sockets; they wait until nothing is in flight instead.
      server.closeIdleConnections = () => {
        log(`Shutting down: no new connections; ${inFlight.size} request(s) in flight to finish.`);
        for (const response of inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
        whenDrained = () => {
          whenDrained = undefined;
          server.closeIdleConnections = closeIdle;
          closeIdle();
        };
        if (inFlight.size === 0) whenDrained();
      };
      const cutOff = setTimeout(() => {
        result = 'forced';
        log(`Shutting down: ${inFlight.size} request(s) still running after ${timeoutMs - CLOSE_HOOKS_MS} ms; closing their connections.`);
        server.closeAllConnections();
      }, Math.max(0, timeoutMs - CLOSE_HOOKS_MS));
      cutOff.unref();
      app.close().then(
        () => {
          clearTimeout(cutOff);
          resolve(result);
        },
        (error: unknown) => {
          clearTimeout(cutOff);
          reject(error);
        },
      );
    });
    return running;
  };
}

/**
 * Shuts `app` (already listening) down gracefully on SIGINT or SIGTERM (see the module's comment), then
 * exits: 0 when everything finished, 1 when something had to be cut off or closing failed, and 1 in any
 * case when the time limit is reached. A second signal during the shutdown ends the process at once.
 */
export function closeOnSignals(app: FastifyInstance, options: ShutdownOptions = {}) {
  const { timeoutMs = SHUTDOWN_TIMEOUT_MS, log = console.log } = options;
  const shutdown = gracefulShutdown(app, { timeoutMs, log });
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const onSignal = () => {
    // From now on a signal has its default effect: a second Ctrl-C ends the process at once.
    for (const signal of signals) process.off(signal, onSignal);
    // The last word: nothing (a stuck onClose hook) keeps the process beyond the limit.
    setTimeout(() => {
      log(`Shutting down: not closed after ${timeoutMs} ms; exiting.`);
      process.exit(1);
    }, timeoutMs).unref();
    shutdown().then(
      (result) => process.exit(result === 'clean' ? 0 : 1),
      (error: unknown) => {
        console.error('Shutting down failed:', error);
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
}

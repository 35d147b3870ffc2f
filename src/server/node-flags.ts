/**
 * The flags the server's Node.js process runs with: `npm start` (package.json's `start` script) and the
 * bench's server (scripts/bench/servers.ts). V8 reads them when it sets up its heap, so they go on the
 * command line: set later from inside (`v8.setFlagsFromString`) they changed nothing (tried).
 * tests/unit/node-flags.test.ts checks the start script carries every one.
 *
 * `--no-memory-reducer`: after some 30 s without requests V8's memory reducer shrinks the heap, and then
 * lets it grow only slowly. Under the next burst of requests the server ran a full mark-compact about 15
 * times a second, on the main thread and four GC threads, and stayed so: cold sorted pages of 50,000
 * products, 50 connections, 5 s runs 35 s apart, 13,000 then 7,200 req/s (190 µs of CPU a page against
 * 75; `--trace-gc`: 1 mark-compact in 2 s before, 15 a second after `Mark-Compact (reduce)`). With the
 * reducer off, 13,400 / 12,900 / 14,300 and a mark-compact every 2 s throughout. What it costs: an idle
 * server keeps the heap it last grew (some tens of MiB) instead of handing it back.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];

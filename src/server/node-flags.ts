/**
 * The flags the server's Node.js process runs with: `npm start` (package.json's `start` script, which
 * runs scripts/start.js and then, in the same process, the compiled server) and the bench's server
 * (scripts/bench/servers.ts). V8 reads them when it sets up its heap, so they go on the
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
 *
 * `--no-allocation-site-pretenuring`: V8 watches where objects are made, and once enough of a site's
 * objects outlive a young-generation collection it makes that site's later objects in the old generation
 * at once. Under a burst of list reads (arrays of rows still in flight at a collection) sites of the
 * read path were so judged, at random, and stayed so: every request's short-lived objects then hung
 * from old ones, each young collection kept 10–16 % of what it looked at (against 1 %) and moved about
 * 2 MB to the old generation (50 MB/s), which grew to 170 MB between full collections. A record by id then
 * cost 75–100 µs of CPU instead of 45. It happened at random: to 3 servers in 6 of this code and 1 in 13
 * of the code before issue 49 (`npm run bench:ab`, `BENCH_NODE_FLAGS=--trace-gc-nvp`: 204–302 MB
 * promoted in a 12 s run against 7–8). With the decision off, 8 servers in 8: 7–11 MB, and the A/B even
 * (docs/performance.md, "The records core's second round, A/B"). What it costs: nothing measured; a
 * site whose objects do live long is copied once more.
 *
 * `--expose-gc`: gives the server `gc()`, which it calls once when it listens (main.ts,
 * `collectStartGarbage`): with the memory reducer off, nothing else would give back what starting left
 * (about 30 MiB of an idle server: docs/performance.md, "A lean process (issue 54)"). It changes nothing
 * else V8 does.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--expose-gc', '--no-memory-reducer', '--no-allocation-site-pretenuring'];

/**
 * The environment the server's process starts with on glibc (Linux): its malloc hands freed blocks of
 * 1 MiB and more back at once, where it would otherwise keep each password check's 16 MiB in the thread
 * that made it. scripts/start.js (plain JavaScript, which cannot import this) says why and sets it;
 * tests/unit/node-flags.test.ts checks the two agree; the bench starts ours with it.
 */
export const SERVER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '1048576' };

/**
 * Values held for a short while and then let go, one per request in flight: the responses a server is
 * answering (lifecycle.ts, for its graceful shutdown), the pages a read worker has been given and not
 * answered (db/sqlite/read-pool.ts). Each value has a slot of one array that only grows to the most ever held
 * at once; a slot let go is emptied and reused.
 *
 * Why not a `Set` or a `Map`: a value added and deleted on every request makes V8 replace the table
 * holding a `Set`'s or `Map`'s entries every few dozen of them (the holes deletes leave fill it), and the
 * table replaced points to its successor and keeps the entries it had. Once one of those tables has
 * lived long enough to be moved to the old generation (a pause of some tens of milliseconds between
 * requests does it), every table after it is kept alive by its dead predecessor at each young-generation
 * collection, and with it every value it held and all they hold (a response: its request, headers,
 * buffers), until a full collection; and the table live then is old too, so it starts again. Under load
 * the server copied about 1.8 MB of dead requests out of the young generation every 20 ms and ran a
 * full collection every second or so, for as long as it ran: a product by id cost 29–31 µs of the
 * process's CPU in that state against 21–23 out of it (README, Performance). Here a value let go is
 * unlinked from the array, and nothing dead points at anything alive.
 */
export class Slots<T> implements Iterable<T> {
  #values: (T | undefined)[] = [];
  /** Emptied slots, reused before the array grows. */
  #free: number[] = [];
  #size = 0;

  /** How many values are held. */
  get size(): number {
    return this.#size;
  }

  /** Holds `value` (not `undefined`); answers its slot, for `take`. */
  add(value: T): number {
    const slot = this.#free.length ? this.#free.pop()! : this.#values.length;
    this.#values[slot] = value;
    this.#size++;
    return slot;
  }

  /** Lets go of the value in `slot` and answers it; undefined when the slot holds none. */
  take(slot: number): T | undefined {
    const value = this.#values[slot];
    if (value === undefined) return undefined;
    this.#values[slot] = undefined;
    this.#free.push(slot);
    this.#size--;
    return value;
  }

  /** Lets go of every value. */
  clear(): void {
    this.#values = [];
    this.#free = [];
    this.#size = 0;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const value of this.#values) if (value !== undefined) yield value;
  }
}

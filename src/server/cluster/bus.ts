/**
 * Messages between the server nodes of one cluster over Redis pub/sub, each acknowledged: a node
 * publishing waits until every node subscribed has handled it (Redis's PUBLISH answers how many
 * subscribers it reached; each answers on the publisher's own ack channel) or `ACK_WAIT_MS` passed.
 * That wait is what lets a write's answer promise that every other node already forgot what it made
 * stale. A node that is not subscribed (Redis away) is not waited for; it trusts nothing meanwhile
 * (see `listening`) and forgets everything when it hears again.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { RedisConnections } from './redis.ts';

/** The longest a publisher waits for the other nodes' acknowledgements (a node stuck or just lost). */
export const ACK_WAIT_MS = 500;

/** Bounds what a message may carry: they come from Redis, which the app does not control alone. */
const message = z.strictObject({
  from: z.string().max(64),
  id: z.number().int().nonnegative(),
  kind: z.string().max(32),
  payload: z.unknown(),
});
const ack = z.strictObject({ id: z.number().int().nonnegative() });

type Handler = (payload: unknown) => void;

export class ClusterBus {
  /** This node's name on the bus (a process may hold several apps: tests). */
  readonly nodeId = randomBytes(8).toString('hex');
  private readonly channel: string;
  private readonly ackChannel: string;
  private readonly handlers = new Map<string, Handler>();
  private readonly waiting = new Map<number, { expected?: number; got: number; done: () => void }>();
  private nextId = 0;
  private subscribed = false;
  private heardBefore = false;
  private readonly onRejoin: Array<() => void> = [];

  constructor(
    private readonly redis: RedisConnections,
    private readonly prefix: string,
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    this.channel = `${prefix}:bus`;
    this.ackChannel = `${prefix}:ack:${this.nodeId}`;
  }

  /** What to do with a message of `kind` from another node. */
  handle(kind: string, handler: Handler) {
    this.handlers.set(kind, handler);
  }

  /** Called when this node hears the others again after a time it could not (it may have missed messages). */
  onReconnect(listener: () => void) {
    this.onRejoin.push(listener);
  }

  /** Whether messages from the other nodes reach this one now. */
  listening(): boolean {
    return this.subscribed && this.redis.sub.isReady;
  }

  async start() {
    const { sub } = this.redis;
    sub.on('ready', () => {
      // node-redis subscribes again by itself; what was published meanwhile is lost.
      if (this.heardBefore) for (const listener of this.onRejoin) listener();
    });
    await sub.subscribe(this.channel, (text) => this.received(text));
    await sub.subscribe(this.ackChannel, (text) => this.acknowledged(text));
    this.subscribed = true;
    this.heardBefore = true;
  }

  private received(text: string) {
    let parsed: z.infer<typeof message>;
    try {
      parsed = message.parse(JSON.parse(text));
    } catch (error) {
      this.log('Cluster bus: a malformed message was ignored', error);
      return;
    }
    if (parsed.from !== this.nodeId) {
      try {
        this.handlers.get(parsed.kind)?.(parsed.payload);
      } catch (error) {
        this.log(`Cluster bus: handling a ${parsed.kind} message failed`, error);
      }
    }
    // Acknowledged even when it is our own: PUBLISH counted this node among its receivers.
    this.redis.pub.publish(`${this.prefix}:ack:${parsed.from}`, JSON.stringify({ id: parsed.id })).catch(() => undefined);
  }

  private acknowledged(text: string) {
    const parsed = ack.safeParse(jsonOrUndefined(text));
    if (!parsed.success) return;
    const wait = this.waiting.get(parsed.data.id);
    if (!wait) return;
    wait.got++;
    if (wait.expected !== undefined && wait.got >= wait.expected) wait.done();
  }

  /**
   * Tells every node (this one included, which skips its own) and settles when all that heard it have
   * handled it, or after ACK_WAIT_MS. Never rejects: Redis being away means there is nobody to tell.
   */
  async publish(kind: string, payload: unknown): Promise<void> {
    if (!this.redis.pub.isReady) return;
    const id = this.nextId++;
    let done!: () => void;
    const settled = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(done, ACK_WAIT_MS);
    timer.unref();
    const wait: { expected?: number; got: number; done: () => void } = { got: 0, done };
    this.waiting.set(id, wait);
    try {
      const receivers = await this.redis.pub.publish(this.channel, JSON.stringify({ from: this.nodeId, id, kind, payload }));
      // Acknowledgements may come before PUBLISH's own answer: they are counted in `got` meanwhile.
      wait.expected = receivers;
      if (wait.got >= receivers) done();
      await settled;
    } catch (error) {
      this.log('Cluster bus: publishing failed', error);
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
    }
  }
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

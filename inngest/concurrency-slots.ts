export interface Slot {
  /** The function and the value of its concurrency key. */
  group: string;
  /** The function's declared concurrency limit for that key. */
  limit: number;
}

interface Group {
  running: number;
  limit: number;
  /** Waiters of this key, in arrival order, from index `head` on (a queue that dequeues in constant time). */
  waiting: (() => void)[];
  head: number;
}

/**
 * Concurrency limits per key as Inngest applies them: waiters start in arrival order when their key has room.
 * Each key keeps its own queue, so a release costs the same however many runs of other keys (a dead receiver's
 * backlog of thousands) are waiting, and one key's backlog never stands in front of another key's runs.
 */
export class ConcurrencySlots {
  private readonly groups = new Map<string, Group>();
  private running = 0;
  private waiting = 0;

  /** Resolves when a run of `slot.group` may execute. */
  acquire(slot: Slot): Promise<void> {
    return new Promise((go) => {
      let group = this.groups.get(slot.group);
      if (!group) this.groups.set(slot.group, (group = { running: 0, limit: slot.limit, waiting: [], head: 0 }));
      if (group.running < group.limit) {
        group.running++;
        this.running++;
        go();
      } else {
        group.waiting.push(go);
        this.waiting++;
      }
    });
  }

  release(key: string): void {
    const group = this.groups.get(key)!;
    const next = group.waiting[group.head];
    if (next) {
      group.waiting[group.head++] = undefined!;
      if (group.head === group.waiting.length) {
        group.waiting = [];
        group.head = 0;
      } else if (group.head > 1024 && group.head * 2 > group.waiting.length) {
        group.waiting = group.waiting.slice(group.head);
        group.head = 0;
      }
      // The slot passes straight to the key's next waiter.
      this.waiting--;
      next();
      return;
    }
    this.running--;
    if (--group.running === 0) this.groups.delete(key);
  }

  /** Runs holding a slot, and runs waiting for one (sleeping runs are in neither). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }
}

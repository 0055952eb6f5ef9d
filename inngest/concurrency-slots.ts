export interface Slot {
  /** The function, the constraint and the value of its key. */
  group: string;
  /** The constraint's declared limit for that key. */
  limit: number;
}

interface Group {
  running: number;
  limit: number;
  /** Waiters of this key, in arrival order, from index `head` on (a queue that dequeues in constant time). */
  waiting: (() => void)[];
  head: number;
}

/** A run taking its slots: `taken` of them so far, in the order given. */
interface RunSlots {
  slots: readonly Slot[];
  taken: number;
  go: () => void;
}

/**
 * Concurrency limits per key as Inngest applies them: waiters start in arrival order when their key has room.
 * Each key keeps its own queue, so a release costs the same however many runs of other keys (a dead receiver's
 * backlog of thousands) are waiting, and one key's backlog never stands in front of another key's runs.
 * A run under several constraints takes their slots in the order the function declares them, holding each while it
 * waits for the next: declared narrowest first, a run waiting for a narrow key's room holds nothing of a wider key's.
 */
export class ConcurrencySlots {
  private readonly groups = new Map<string, Group>();
  private running = 0;
  private waiting = 0;

  /** Resolves when a run under `slots` may execute. */
  acquire(slots: readonly Slot[]): Promise<void> {
    return new Promise((go) => {
      this.waiting++;
      this.take({ slots, taken: 0, go });
    });
  }

  /** Gives back a running run's slots. */
  release(slots: readonly Slot[]): void {
    this.running--;
    for (let i = slots.length - 1; i >= 0; i--) this.releaseOne(slots[i]!.group);
  }

  /** Runs holding their slots, and runs waiting for one (sleeping runs are in neither). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting };
  }

  private take(run: RunSlots): void {
    for (; run.taken < run.slots.length; run.taken++) {
      const slot = run.slots[run.taken]!;
      let group = this.groups.get(slot.group);
      if (!group) this.groups.set(slot.group, (group = { running: 0, limit: slot.limit, waiting: [], head: 0 }));
      if (group.running >= group.limit) {
        // The slot comes straight from a release (releaseOne), already counted as running.
        group.waiting.push(() => {
          run.taken++;
          this.take(run);
        });
        return;
      }
      group.running++;
    }
    this.waiting--;
    this.running++;
    run.go();
  }

  private releaseOne(key: string): void {
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
      next();
      return;
    }
    if (--group.running === 0) this.groups.delete(key);
  }
}

export interface Slot {
  /** The function and the value of its concurrency key. */
  group: string;
  /** The function's declared concurrency limit for that key. */
  limit: number;
}

/** Concurrency limits per key as Inngest applies them: waiters start in arrival order when their key has room. */
export class ConcurrencySlots {
  private readonly waiting: (Slot & { go: () => void })[] = [];
  private readonly runningPerGroup = new Map<string, number>();
  private running = 0;

  /** Resolves when a run of `slot.group` may execute. */
  acquire(slot: Slot): Promise<void> {
    return new Promise((go) => {
      this.waiting.push({ ...slot, go });
      this.pump();
    });
  }

  release(group: string): void {
    this.running--;
    const left = this.runningPerGroup.get(group)! - 1;
    if (left) this.runningPerGroup.set(group, left);
    else this.runningPerGroup.delete(group);
    this.pump();
  }

  /** Runs holding a slot, and runs waiting for one (sleeping runs are in neither). */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  private pump(): void {
    for (let i = 0; i < this.waiting.length; ) {
      const waiter = this.waiting[i]!;
      const busy = this.runningPerGroup.get(waiter.group) ?? 0;
      if (busy >= waiter.limit) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.running++;
      this.runningPerGroup.set(waiter.group, busy + 1);
      waiter.go();
    }
  }
}

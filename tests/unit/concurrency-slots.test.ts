import { describe, expect, it } from "vitest";
import { ConcurrencySlots } from "@/inngest/concurrency-slots";

describe("concurrency slots of the in-process driver", () => {
  it("hands a released slot to its key's next waiter at a cost independent of the backlog (a dead receiver's queue)", async () => {
    const slots = new ConcurrencySlots();
    const dead = { group: "deliver-webhook\ndead", limit: 8 };
    const backlog = 50_000;
    const order: number[] = [];
    const runs = Array.from({ length: backlog }, (_, i) => slots.acquire(dead).then(() => order.push(i)));
    expect(slots.load()).toEqual({ running: 8, waiting: backlog - 8 });

    // Another key is never behind the backlog.
    let healthyStarted = false;
    void slots.acquire({ group: "deliver-webhook\nhealthy", limit: 8 }).then(() => (healthyStarted = true));
    await Promise.resolve();
    expect(healthyStarted).toBe(true);
    slots.release("deliver-webhook\nhealthy");

    // Each run ends as soon as it starts: the whole backlog drains, in arrival order, in linear time (a scan of
    // every waiter per release took 24 s here; this takes well under one).
    const started = performance.now();
    for (let i = 0; i < backlog; i++) slots.release(dead.group);
    await Promise.all(runs);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(order).toEqual(Array.from({ length: backlog }, (_, i) => i));
    expect(slots.load()).toEqual({ running: 0, waiting: 0 });
  });
});

import { describe, expect, it } from "vitest";
import { ConcurrencySlots } from "@/inngest/concurrency-slots";

describe("concurrency slots of the in-process driver", () => {
  it("hands a released slot to its key's next waiter at a cost independent of the backlog (a dead receiver's queue)", async () => {
    const slots = new ConcurrencySlots();
    const dead = { group: "deliver-webhook\ndead", limit: 8 };
    const backlog = 50_000;
    const order: number[] = [];
    const runs = Array.from({ length: backlog }, (_, i) => slots.acquire([dead]).then(() => order.push(i)));
    expect(slots.load()).toEqual({ running: 8, waiting: backlog - 8 });

    // Another key is never behind the backlog.
    let healthyStarted = false;
    const healthy = { group: "deliver-webhook\nhealthy", limit: 8 };
    void slots.acquire([healthy]).then(() => (healthyStarted = true));
    await Promise.resolve();
    expect(healthyStarted).toBe(true);
    slots.release([healthy]);

    // Each run ends as soon as it starts: the whole backlog drains, in arrival order, in linear time (a scan of
    // every waiter per release took 24 s here; this takes well under one).
    const started = performance.now();
    for (let i = 0; i < backlog; i++) slots.release([dead]);
    await Promise.all(runs);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(order).toEqual(Array.from({ length: backlog }, (_, i) => i));
    expect(slots.load()).toEqual({ running: 0, waiting: 0 });
  });

  it("starts a run under two constraints when both have room, taking them in the order declared", async () => {
    const slots = new ConcurrencySlots();
    const integration = { group: "deliver-webhook\n1\nintegration", limit: 4 };
    const failingLane = { group: "deliver-webhook\n0\nfailing", limit: 1 };
    const ownLane = (n: number) => ({ group: `deliver-webhook\n0\ndelivery-${n}`, limit: 1 });
    const started: string[] = [];
    const failing = Array.from({ length: 3 }, () => [failingLane, integration]);
    failing.forEach((run, n) => void slots.acquire(run).then(() => started.push(`failing ${n}`)));
    const own = [1, 2, 3, 4].map((n) => [ownLane(n), integration]);
    own.forEach((run, n) => void slots.acquire(run).then(() => started.push(`own ${n}`)));
    await Promise.resolve();
    // One run of the narrow lane; the lane's waiters hold none of the integration's slots, so three others run.
    expect(started).toEqual(["failing 0", "own 0", "own 1", "own 2"]);
    expect(slots.load()).toEqual({ running: 4, waiting: 3 });

    // The lane's run ends: its next one takes the lane, then waits for the integration behind the run already waiting.
    slots.release(failing[0]!);
    await Promise.resolve();
    expect(started).toEqual(["failing 0", "own 0", "own 1", "own 2", "own 3"]);
    slots.release(own[0]!);
    await Promise.resolve();
    expect(started.at(-1)).toBe("failing 1");
    expect(slots.load()).toEqual({ running: 4, waiting: 1 });
  });
});

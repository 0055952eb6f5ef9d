import { afterEach, describe, expect, it } from "vitest";
import { inngest } from "@/inngest/client";
import { InProcessDriver } from "@/inngest/driver";

// The in-process driver's scheduling, with stand-in functions that hold their run until released.
const PER_KEY = 8;

interface Held {
  key: string;
  release: () => void;
}

const held: Held[] = [];
let cronRuns = 0;

function hold(key: string): Promise<void> {
  return new Promise((resolve) => held.push({ key, release: resolve }));
}

const keyed = inngest.createFunction(
  { id: "test-keyed", triggers: [{ event: "test/keyed" }], concurrency: { key: "event.data.k", limit: PER_KEY }, retries: 0 },
  async ({ event }) => hold(String((event.data as { k: string }).k)),
);

const scheduled = inngest.createFunction({ id: "test-scheduled", triggers: [{ cron: "* * * * *" }], retries: 0 }, async () => {
  cronRuns++;
  await hold("cron");
});

async function settle(): Promise<void> {
  // Runs get going asynchronously (the SDK's handler); wait until no more arrive for a few turns.
  let quiet = 0;
  let seen = -1;
  while (quiet < 3) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    quiet = held.length === seen ? quiet + 1 : 0;
    seen = held.length;
  }
}

function heldBy(key: string): number {
  return held.filter((h) => h.key === key).length;
}

describe("in-process Inngest driver", () => {
  let driver: InProcessDriver;

  afterEach(async () => {
    // Let every run end, so no test leaves work behind.
    while (driver.load().running || driver.load().waiting) {
      held.splice(0).forEach((h) => h.release());
      await settle();
    }
    cronRuns = 0;
  });

  it("starts a run for a key with nothing running even when slow keys hold every slot", async () => {
    driver = new InProcessDriver([keyed]);
    // Nine dead receivers, each with more deliveries than its limit: 8 × 8 fill the overall cap of 64.
    const dead = Array.from({ length: 9 }, (_, i) => `dead-${i}`);
    for (const k of dead) driver.dispatch(Array.from({ length: 12 }, (_, n) => ({ name: "test/keyed", data: { k, n } })));
    await settle();
    expect(dead.slice(0, 8).map(heldBy)).toEqual(Array(8).fill(PER_KEY));
    expect(heldBy("dead-8"), "the ninth key gets a run past the cap").toBe(1);

    driver.dispatch([{ name: "test/keyed", data: { k: "healthy", n: 0 } }]);
    await settle();
    expect(heldBy("healthy")).toBe(1);
    // The cap still binds a key that already has a run: only one extra run per key.
    driver.dispatch([{ name: "test/keyed", data: { k: "healthy", n: 1 } }]);
    await settle();
    expect(heldBy("healthy")).toBe(1);
    expect(driver.load()).toEqual({ running: 64 + 2, waiting: 9 * 12 + 2 - 66 });

    // When the key's run ends its next one starts at once, even though the cap is still exceeded.
    const healthyRun = held.find((h) => h.key === "healthy")!;
    held.splice(held.indexOf(healthyRun), 1);
    healthyRun.release();
    await settle();
    expect(heldBy("healthy")).toBe(1);
    expect(driver.load()).toEqual({ running: 64 + 2, waiting: 9 * 12 - 65 });
  });

  it("starts no second run for an event whose work is already queued or running", async () => {
    driver = new InProcessDriver([keyed]);
    const event = (n: number) => ({ name: "test/keyed", data: { k: "slow", n } });
    driver.dispatch(Array.from({ length: PER_KEY + 2 }, (_, n) => event(n)));
    await settle();
    expect(driver.load()).toEqual({ running: PER_KEY, waiting: 2 });

    // Re-announced (a sweeper's duplicates): queued and running ones alike add nothing, whatever the key order.
    driver.dispatch([event(0), event(PER_KEY + 1), { name: "test/keyed", data: { n: PER_KEY, k: "slow" } }]);
    await settle();
    expect(driver.load()).toEqual({ running: PER_KEY, waiting: 2 });

    // Once its run has ended, the same event starts a run again.
    const first = held.shift()!;
    first.release();
    await settle();
    expect(driver.load()).toEqual({ running: PER_KEY, waiting: 1 });
    driver.dispatch([event(0)]);
    await settle();
    expect(driver.load()).toEqual({ running: PER_KEY, waiting: 2 });
  });

  it("does not stack cron runs: a tick while the last one still runs starts nothing", async () => {
    driver = new InProcessDriver([scheduled]);
    driver.fireCron();
    driver.fireCron();
    await settle();
    expect(cronRuns).toBe(1);
    expect(driver.load()).toEqual({ running: 1, waiting: 0 });
    held.splice(0).forEach((h) => h.release());
    await settle();
    driver.fireCron();
    await settle();
    expect(cronRuns).toBe(2);
  });

  it("keeps no bookkeeping for keys once their runs are done", async () => {
    driver = new InProcessDriver([keyed]);
    driver.dispatch(Array.from({ length: 50 }, (_, n) => ({ name: "test/keyed", data: { k: `key-${n}`, n } })));
    await settle();
    held.splice(0).forEach((h) => h.release());
    await settle();
    expect(driver.load()).toEqual({ running: 0, waiting: 0 });
    expect((driver as unknown as { groups: Map<string, unknown> }).groups.size).toBe(0);
  });
});

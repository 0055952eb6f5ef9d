import { afterEach, describe, expect, it, vi } from "vitest";
import { inngest } from "@/inngest/client";
import { InProcessDriver } from "@/inngest/driver";
import { inProcessTransport, type StepTransport } from "@/inngest/in-process-transport";

// The in-process driver honours exactly what functions declare; stand-in functions hold their run until released.
const PER_KEY = 3;

interface Held {
  key: string;
  release: () => void;
}

const held: Held[] = [];
let cronRuns = 0;
let flakyCalls = 0;

function hold(key: string): Promise<void> {
  return new Promise((resolve) => held.push({ key, release: resolve }));
}

const keyed = inngest.createFunction(
  { id: "test-keyed", triggers: [{ event: "test/keyed" }], concurrency: { key: "event.data.k", limit: PER_KEY }, retries: 0 },
  async ({ event }) => hold(String((event.data as { k: string }).k)),
);

// deliver-webhook's shape: a narrow lane shared by some runs, within a wider key.
const laned = inngest.createFunction(
  {
    id: "test-laned",
    triggers: [{ event: "test/laned" }],
    concurrency: [
      { key: "event.data.lane", limit: 1 },
      { key: "event.data.k", limit: PER_KEY },
    ],
    retries: 0,
  },
  async ({ event }) => hold(String((event.data as { lane: string }).lane)),
);

const single = inngest.createFunction(
  { id: "test-single", triggers: [{ event: "test/single" }], singleton: { key: "event.data.id", mode: "skip" }, retries: 0 },
  async ({ event }) => hold(String((event.data as { id: string }).id)),
);

const scheduled = inngest.createFunction(
  { id: "test-scheduled", triggers: [{ cron: "*/5 * * * *" }], retries: 0, singleton: { mode: "skip" } },
  async () => {
    cronRuns++;
    await hold("cron");
  },
);

const flaky = inngest.createFunction({ id: "test-flaky", triggers: [{ event: "test/flaky" }], retries: 1 }, async ({ step }) => {
  await step.run("fails", () => {
    flakyCalls++;
    throw new Error("database unreachable");
  });
});

// Steps in a row, then a durable wait, then another step: how many handler calls a run takes, and how often each step ran.
const stepRuns: Record<string, number> = {};
const countStep = (name: string) => () => (stepRuns[name] = (stepRuns[name] ?? 0) + 1);
const stepwise = inngest.createFunction({ id: "test-stepwise", triggers: [{ event: "test/stepwise" }], retries: 0 }, async ({ step }) => {
  const first = await step.run("first", countStep("first"));
  const second = await step.run("second", countStep("second"));
  await step.sleepUntil("pause", new Date(Date.now() + 50).toISOString());
  const third = await step.run("third", countStep("third"));
  return { first, second, third };
});

/** The in-process transport of `fns`, counting its calls. */
function countedTransport(fns: Parameters<typeof inProcessTransport>[1]): StepTransport & { calls: number } {
  const transport = inProcessTransport(inngest, fns);
  const counted = Object.assign(async (request: Parameters<StepTransport>[0]) => {
    counted.calls++;
    return transport(request);
  }, { calls: 0 });
  return counted;
}

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

const heldBy = (key: string) => held.filter((h) => h.key === key).length;

describe("in-process Inngest driver", () => {
  let driver: InProcessDriver;

  afterEach(async () => {
    vi.useRealTimers();
    driver.stopCron();
    // Let every run end, so no test leaves work behind.
    while (driver.load().running || driver.load().waiting) {
      held.splice(0).forEach((h) => h.release());
      await settle();
    }
    cronRuns = 0;
  });

  it("runs at most the declared limit per concurrency key, and nothing caps the keys", async () => {
    driver = new InProcessDriver(inngest, [keyed]);
    const keys = Array.from({ length: 30 }, (_, i) => `key-${i}`);
    for (const k of keys) driver.dispatch(Array.from({ length: PER_KEY + 2 }, (_, n) => ({ name: "test/keyed", data: { k, n } })));
    await settle();
    expect(keys.map(heldBy)).toEqual(Array(30).fill(PER_KEY));
    expect(driver.load()).toEqual({ running: 30 * PER_KEY, waiting: 30 * 2 });

    // When a key's run ends its next one starts at once.
    const run = held.find((h) => h.key === "key-7")!;
    held.splice(held.indexOf(run), 1);
    run.release();
    await settle();
    expect(heldBy("key-7")).toBe(PER_KEY);
    expect(driver.load()).toEqual({ running: 30 * PER_KEY, waiting: 30 * 2 - 1 });
  });

  it("runs under both declared concurrency constraints: a shared narrow lane takes one of its key's runs", async () => {
    driver = new InProcessDriver(inngest, [laned]);
    driver.dispatch(Array.from({ length: 4 }, (_, n) => ({ name: "test/laned", data: { k: "a", lane: "shared", n } })));
    driver.dispatch(Array.from({ length: 4 }, (_, n) => ({ name: "test/laned", data: { k: "a", lane: `own-${n}` } })));
    await settle();
    expect(heldBy("shared")).toBe(1);
    expect(held.filter((h) => h.key.startsWith("own-")).length).toBe(PER_KEY - 1);
    expect(driver.load()).toEqual({ running: PER_KEY, waiting: 8 - PER_KEY });
  });

  it("starts no second run of a singleton key while one is queued or running, and keeps event ids as sent", async () => {
    driver = new InProcessDriver(inngest, [single]);
    expect(driver.dispatch([{ id: "evt-a", name: "test/single", data: { id: "a" } }])).toEqual(["evt-a"]);
    await settle();
    driver.dispatch([{ id: "evt-a2", name: "test/single", data: { id: "a" } }, { name: "test/single", data: { id: "b" } }]);
    await settle();
    expect([heldBy("a"), heldBy("b")]).toEqual([1, 1]);

    // Once the run has ended a new event for the key runs; a repeat of an event id already seen never does.
    held.splice(0).forEach((h) => h.release());
    await settle();
    driver.dispatch([{ id: "evt-a", name: "test/single", data: { id: "a" } }]);
    await settle();
    expect(heldBy("a")).toBe(0);
    driver.dispatch([{ id: "evt-a3", name: "test/single", data: { id: "a" } }]);
    await settle();
    expect(heldBy("a")).toBe(1);
  });

  it("fires cron functions when their expression says, as singletons", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: new Date("2026-01-01T00:01:00Z") });
    driver = new InProcessDriver(inngest, [scheduled]);
    driver.startCron();
    vi.advanceTimersByTime(3 * 60_000);
    expect(driver.load().running).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(driver.load().running).toBe(1);
    driver.fireCron();
    expect(driver.load()).toEqual({ running: 1, waiting: 0 });
    vi.useRealTimers();
    await settle();
    expect(cronRuns).toBe(1);
  });

  it("retries a failing step as often as the function's retries say, then fails the run", async () => {
    driver = new InProcessDriver(inngest, [flaky]);
    flakyCalls = 0;
    driver.dispatch([{ name: "test/flaky", data: {} }]);
    await vi.waitFor(() => expect(driver.load().running).toBe(0), { timeout: 10_000 });
    expect(flakyCalls).toBe(2);
  });

  it("runs steps one after another within a call, as Inngest's checkpointing does, and replays them after a wait", async () => {
    const transport = countedTransport([stepwise]);
    driver = new InProcessDriver(inngest, [stepwise], transport);
    driver.dispatch([{ name: "test/stepwise", data: {} }]);
    // A sleeping run holds no slot, so the load says nothing until the last step has run.
    await vi.waitFor(() => expect(stepRuns.third).toBe(1), { timeout: 5_000 });
    await vi.waitFor(() => expect(driver.load().running).toBe(0), { timeout: 5_000 });
    // Two steps and the wait in the first call, the third step and the return in the second; no step ran twice.
    expect(transport.calls).toBe(2);
    expect(stepRuns).toEqual({ first: 1, second: 1, third: 1 });
  });

  it("refuses to start when a function declares an option it cannot honour, naming it", () => {
    const declare = (opts: object) =>
      inngest.createFunction({ id: "test-refused", triggers: [{ event: "test/refused" }], retries: 0, ...opts }, async () => null);
    expect(() => new InProcessDriver(inngest, [declare({ rateLimit: { limit: 1, period: "1m" } })])).toThrow(/rateLimit of function test-refused/);
    expect(() => new InProcessDriver(inngest, [declare({ concurrency: { key: "event.user.id", limit: 1 } })])).toThrow(/concurrency\.key/);
    expect(() => new InProcessDriver(inngest, [declare({ concurrency: [1, 2, 3].map((limit) => ({ key: "event.data.id", limit })) })])).toThrow(
      /more than 2 concurrency constraints/,
    );
    expect(() => new InProcessDriver(inngest, [declare({ singleton: { key: "event.data.id", mode: "cancel" } })])).toThrow(/singleton\.mode/);
    expect(() => new InProcessDriver(inngest, [declare({ triggers: [{ event: "test/refused", if: "event.data.x == 1" }] })])).toThrow(/trigger option if/);
    expect(() => new InProcessDriver(inngest, [declare({ triggers: [{ cron: "every minute" }] })])).toThrow();
  });
});

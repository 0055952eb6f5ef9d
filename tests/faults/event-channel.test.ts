import type { EventPayload } from "inngest";
import { describe, expect, it } from "vitest";
import { publishEvents, subscribeToEvents } from "@/inngest/event-channel";
import { usePostgresDatabasePerTest } from "../support/database";

const deliveryEvent = (n: number): EventPayload => ({
  id: `delivery-${crypto.randomUUID()}-0-${1_700_000_000_000 + n}`,
  name: "webhook/delivery.created",
  data: { deliveryId: crypto.randomUUID(), integrationId: crypto.randomUUID() },
});

describe("the event channel from npm start's web workers to its delivery worker (LISTEN/NOTIFY)", () => {
  usePostgresDatabasePerTest();

  it("carries every event of an announcement larger than one notification, as sent", async () => {
    const received: EventPayload[] = [];
    let listening = 0;
    await subscribeToEvents((events) => received.push(...events), () => listening++);
    expect(listening).toBe(1);

    // A bulk recovery announces thousands at once: far beyond PostgreSQL's 8000-byte payload.
    const sent = Array.from({ length: 2_000 }, (_, n) => deliveryEvent(n));
    await publishEvents(sent);
    await publishEvents([deliveryEvent(-1)]);
    await expect.poll(() => received.length, { timeout: 10_000, interval: 50 }).toBe(sent.length + 1);
    expect(received.slice(0, sent.length)).toEqual(sent);
  });

  it("sends the announcements made at the same moment in one notification, each event once", async () => {
    const notifications: EventPayload[][] = [];
    await subscribeToEvents((events) => notifications.push(events), () => {});

    // Sixteen orders committing together, each announcing its delivery.
    const sent = Array.from({ length: 16 }, (_, n) => deliveryEvent(n));
    await Promise.all(sent.map((event) => publishEvents([event])));
    await expect.poll(() => notifications.flat().length, { timeout: 10_000, interval: 50 }).toBe(sent.length);
    expect(notifications).toEqual([sent]);
  });
});

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
});

import { describe, expect, it } from "vitest";
// Not among the package's exports: the class patches/inngest+4.24.0.patch changes, loaded as the SDK loads it.
import { Stream } from "../../node_modules/inngest/components/StreamTools.js";

async function text(readable: ReadableStream<Uint8Array>): Promise<string> {
  let all = "";
  const decoder = new TextDecoder();
  for await (const chunk of readable as unknown as AsyncIterable<Uint8Array>) all += decoder.decode(chunk, { stream: true });
  return all + decoder.decode();
}

/**
 * The SDK's per-execution SSE stream makes its TransformStream only when something reads it (most runs never do): the
 * events written before that come out first, in order, exactly as they would have from a stream made up front.
 */
describe("inngest Stream (patched: made when first read)", () => {
  it("gives a reader that comes after the run every event of it, in order", async () => {
    const stream = new Stream();
    stream.commit("step-a");
    stream.rollback("step-b");
    stream.closeSucceeded({ statusCode: 200, body: "done", headers: {} });
    const all = await text(stream.readable);
    expect(all.indexOf("inngest.commit")).toBeGreaterThanOrEqual(0);
    expect(all.indexOf("inngest.commit")).toBeLessThan(all.indexOf("inngest.rollback"));
    expect(all.indexOf("inngest.rollback")).toBeLessThan(all.indexOf("inngest.response"));
    expect(all).toContain("step-a");
    expect(all).toContain("done");
  });

  it("gives a reader that comes during the run what came before and what comes after", async () => {
    const stream = new Stream();
    stream.commit("before-read");
    const read = text(stream.readable);
    stream.push("pushed after the read");
    stream.end();
    const all = await read;
    expect(all.indexOf("before-read")).toBeGreaterThanOrEqual(0);
    expect(all.indexOf("before-read")).toBeLessThan(all.indexOf("pushed after the read"));
  });
});

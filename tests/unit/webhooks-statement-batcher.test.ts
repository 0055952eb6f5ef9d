import { describe, expect, it } from "vitest";
import { statementBatcher } from "@/lib/webhooks/statement-batcher";

/** A statement that answers when told to: each call of `run` is one statement, with the inputs it carried. */
function gatedStatements(fail: (input: number) => boolean = () => false) {
  const statements: { inputs: number[]; answer(): void }[] = [];
  const run = (inputs: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      statements.push({
        inputs,
        answer: () => (inputs.some(fail) ? reject(new Error(`bad input in ${inputs.join(",")}`)) : resolve(inputs.map((n) => n * 10))),
      });
    });
  return { run, statements };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("statement batcher (the delivery worker's claims and attempt records)", () => {
  it("sends a lone call at once, and the calls made while statements run together in the next statement", async () => {
    const { run, statements } = gatedStatements();
    const call = statementBatcher(run, { maxBatch: 64, inFlight: 1 });

    const first = call(1);
    await settled();
    expect(statements.map((s) => s.inputs)).toEqual([[1]]);

    const waiting = Array.from({ length: 100 }, (_, i) => call(i + 2));
    await settled();
    expect(statements).toHaveLength(1);
    statements[0]!.answer();
    expect(await first).toBe(10);
    await settled();
    // 100 calls that waited: two statements (at most 64 inputs each), not 100.
    expect(statements.map((s) => s.inputs.length)).toEqual([1, 64]);
    statements[1]!.answer();
    await settled();
    expect(statements.map((s) => s.inputs.length)).toEqual([1, 64, 36]);
    statements[2]!.answer();
    expect(await Promise.all(waiting)).toEqual(Array.from({ length: 100 }, (_, i) => (i + 2) * 10));
  });

  it("runs up to inFlight statements at once", async () => {
    const { run, statements } = gatedStatements();
    const call = statementBatcher(run, { maxBatch: 2, inFlight: 2 });
    const calls = [1, 2, 3, 4, 5].map((n) => call(n));
    await settled();
    expect(statements.map((s) => s.inputs)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    statements[1]!.answer();
    await settled();
    expect(statements.map((s) => s.inputs)).toEqual([[1, 2], [3, 4], [5]]);
    statements[0]!.answer();
    statements[2]!.answer();
    expect(await Promise.all(calls)).toEqual([10, 20, 30, 40, 50]);
  });

  it("fails only the caller whose input makes the statement fail: the others are run again alone", async () => {
    const { run, statements } = gatedStatements((n) => n === 3);
    const call = statementBatcher(run, { maxBatch: 64, inFlight: 1 });
    const calls = [1, 2, 3, 4].map((n) => call(n).then((value) => ({ value }), (error: Error) => ({ error: error.message })));
    await settled();
    statements[0]!.answer();
    await settled();
    expect(statements.slice(1).map((s) => s.inputs)).toEqual([[1], [2], [3], [4]]);
    for (const statement of statements.slice(1)) statement.answer();
    expect(await Promise.all(calls)).toEqual([{ value: 10 }, { value: 20 }, { error: "bad input in 3" }, { value: 40 }]);
  });
});

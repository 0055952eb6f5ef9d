import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toPublicId } from "@/lib/ids";
import { PREVIOUS_SECRET_EXAMPLE } from "@/lib/openapi/operations/webhook-integrations";
import { WEBHOOK_HEADERS } from "@/lib/openapi/webhooks";
import type { IntegrationJson as Integration } from "@/lib/webhooks/integrations";
import { expectStatus } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { useReceivers, type ReceivedRequest, type Receiver } from "../support/receiver";
import { useTestServer } from "../support/server";
import { completeOrder } from "../support/webhooks";

const README = readFileSync(path.resolve(import.meta.dirname, "..", "..", "README.md"), "utf8");

/** The fenced block right after `<!-- snippet: NAME … -->` in the README. */
function snippet(name: string): string {
  const match = README.match(new RegExp(`<!-- snippet: ${name}\\b[^>]*-->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\`\\n`));
  if (!match) throw new Error(`README.md has no code block marked <!-- snippet: ${name} -->`);
  return match[1]!;
}

interface Case {
  body: string;
  headers: Record<string, string>;
  secret: string;
  now?: number;
}

// Each driver feeds the README function every case (JSON on stdin) and prints one verdict per case.
const NODE_DRIVER = `
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify(cases.map((c) => {
  try {
    verifyWebhook(Buffer.from(c.body, "utf8"), c.headers, c.secret, c.now ?? undefined);
    return "verified";
  } catch (error) {
    return "rejected: " + error.message;
  }
})));
`;

const PYTHON_DRIVER = `
import sys
cases = json.load(sys.stdin)
verdicts = []
for case in cases:
    try:
        verify_webhook(case["body"].encode("utf-8"), case["headers"], case["secret"], case.get("now"))
        verdicts.append("verified")
    except ValueError as error:
        verdicts.append("rejected: " + str(error))
print(json.dumps(verdicts))
`;

const RUNNERS = {
  node: { snippet: "verify-webhook-node", file: "verify.mjs", driver: NODE_DRIVER, command: process.execPath },
  python: { snippet: "verify-webhook-python", file: "verify.py", driver: PYTHON_DRIVER, command: "python3" },
} as const;

const scratch = mkdtempSync(path.join(tmpdir(), "readme-snippets-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(language: keyof typeof RUNNERS, cases: Case[]): string[] {
  const runner = RUNNERS[language];
  const file = path.join(scratch, runner.file);
  writeFileSync(file, `${snippet(runner.snippet)}\n${runner.driver}`);
  const result = spawnSync(runner.command, [file], { input: JSON.stringify(cases), encoding: "utf8", timeout: 20_000 });
  expect(result.status, `${language}: ${result.stderr}`).toBe(0);
  return JSON.parse(result.stdout) as string[];
}

/** Both snippets' verdicts on the same cases: each language must give exactly the expected ones. */
function expectVerdicts(cases: [Case, "verified" | "rejected"][]) {
  for (const language of Object.keys(RUNNERS) as (keyof typeof RUNNERS)[]) {
    const verdicts = run(language, cases.map(([c]) => c));
    expect(verdicts.map((verdict) => verdict.split(":")[0]), `${language}: ${verdicts.join(" | ")}`).toEqual(cases.map(([, expected]) => expected));
  }
}

async function nextRequest(receiver: Receiver, count: number): Promise<ReceivedRequest> {
  const deadline = Date.now() + 20_000;
  while (receiver.requests.length < count) {
    if (Date.now() > deadline) expect.fail(`the receiver got ${receiver.requests.length} requests, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return receiver.requests[count - 1]!;
}

const asCase = (request: ReceivedRequest, secret: string): Case => ({
  body: request.body,
  headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)])),
  secret,
});

// A well-formed secret that is not the integration's.
const OTHER_SECRET = PREVIOUS_SECRET_EXAMPLE;

describe("README verification snippets (Node and Python) against deliveries captured from the app", () => {
  useTestDatabase();
  const server = useTestServer();
  const receivers = useReceivers();

  it("verify a real delivery, refuse a tampered body, a wrong or shortened secret and a stale timestamp, and accept both signatures of a rotation overlap", async () => {
    const tenant = await createTenant();
    const api = apiClient(server.url(), tenant.userToken);
    const hook = await receivers(() => ({ status: 200 }));
    const created = await expectStatus<Integration>(await api("/webhooks/integrations", { method: "POST", body: { url: hook.url } }), 201);
    const secret = created.signing_secret!;

    // A real OrderCompleted (its customer name is not ASCII, so the bytes matter).
    const { deliveryIds } = await completeOrder(tenant.organization.id);
    const single = await nextRequest(hook, 1);
    expect(single.headers["x-webhook-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    const valid = asCase(single, secret);
    const timestamp = Number(valid.headers["x-webhook-timestamp"]);
    expectVerdicts([
      [valid, "verified"],
      [{ ...valid, body: valid.body.replace('"is_refunded":false', '"is_refunded":true') }, "rejected"],
      [{ ...valid, body: `${valid.body} ` }, "rejected"],
      [{ ...valid, secret: OTHER_SECRET }, "rejected"],
      // The key is the whole whsec_… string: the part after the prefix alone does not verify.
      [{ ...valid, secret: secret.slice("whsec_".length) }, "rejected"],
      [{ ...valid, now: timestamp + 299 }, "verified"],
      [{ ...valid, now: timestamp + 301 }, "rejected"],
      [{ ...valid, now: timestamp - 301 }, "rejected"],
      [{ ...valid, headers: { ...valid.headers, "x-webhook-timestamp": String(timestamp + 1) } }, "rejected"],
    ]);

    // Rotation with an hour's overlap: two signatures, newest first; either secret verifies.
    const path = `/webhooks/integrations/${created.id}`;
    const rotated = await expectStatus<Integration>(await api(`${path}/rotate-secret`, { method: "POST", body: { expire_previous_in: 3600 } }), 200);
    const newSecret = rotated.signing_secret!;
    await completeOrder(tenant.organization.id);
    const overlap = await nextRequest(hook, 2);
    expect(overlap.headers["x-webhook-signature"]).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expectVerdicts([
      [asCase(overlap, newSecret), "verified"],
      [asCase(overlap, secret), "verified"],
      [{ ...asCase(overlap, newSecret), body: overlap.body.replace("buyer@", "buyer2@") }, "rejected"],
      [{ ...asCase(overlap, secret), body: overlap.body.replace("buyer@", "buyer2@") }, "rejected"],
      [asCase(overlap, OTHER_SECRET), "rejected"],
    ]);

    // Rotating again without overlap: one signature, and only the newest secret verifies.
    const final = await expectStatus<Integration>(await api(`${path}/rotate-secret`, { method: "POST", body: { expire_previous_in: 0 } }), 200);
    const redelivered = await expectStatus<{ id: string }>(
      await api(`/webhooks/deliveries/${toPublicId("delivery", deliveryIds[0]!)}/redeliver`, { method: "POST" }),
      201,
    );
    const redelivery = await nextRequest(hook, 3);
    expect(redelivery.headers["x-webhook-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(redelivery.headers["x-webhook-delivery-id"]).toBe(redelivered.id);
    expectVerdicts([
      [asCase(redelivery, final.signing_secret!), "verified"],
      [asCase(redelivery, newSecret), "rejected"],
      [asCase(redelivery, secret), "rejected"],
    ]);

    // The OpenAPI webhooks section documents exactly the X-Webhook-* headers a redelivery of a signed integration carries.
    const sent = Object.keys(redelivery.headers).filter((name) => name.startsWith("x-webhook-"));
    expect(sent.sort()).toEqual(WEBHOOK_HEADERS.map((header) => header.name.toLowerCase()).sort());
  });
});

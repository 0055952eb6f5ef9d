import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Operation } from "@/lib/http/operation";
import { errorBodySchema } from "@/lib/openapi/components";
import { buildOpenApiDocument, pathParameterNames } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/openapi/operations";
import { SECRET_EXAMPLE } from "@/lib/openapi/operations/webhook-integrations";
import { WEBHOOK_HEADERS } from "@/lib/openapi/webhooks";
import { transactionOrderSchema } from "@/lib/orders/order-schemas";
import { verifyWebhook } from "@/lib/webhooks/verify";
import { hoursFromNow } from "../support/catalog";
import { useTestDatabase } from "../support/database";
import { apiClient, createTenant } from "../support/fixtures";
import { useTestServer } from "../support/server";

interface DocumentedOperation {
  operationId: string;
  security: unknown;
  parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: { "application/json": { schema: { $ref: string } } } };
  responses: Record<string, { content?: { "application/json": { schema: unknown } } }>;
}

const operation = (operationId: string): Operation => {
  const op = OPERATIONS.find((candidate) => candidate.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
};

/**
 * The response has the documented status and exactly the documented shape: zod objects drop unknown keys,
 * so a field the schema does not list makes the parsed value differ from the body.
 */
async function expectDocumented<T = Record<string, unknown>>(operationId: string, response: Response): Promise<T> {
  const op = operation(operationId);
  const text = await response.text();
  expect(response.status, `${operationId} → ${text}`).toBe(op.response.status);
  const body = text ? JSON.parse(text) : undefined;
  if (op.response.schema) expect(op.response.schema.parse(body)).toEqual(body);
  return body as T;
}

/** A documented 201 whose Location is the new resource's path. */
async function expectCreated<T extends { id: string }>(
  operationId: string,
  response: Response,
  location: (created: T) => string,
): Promise<T> {
  const created = await expectDocumented<T>(operationId, response);
  expect(response.headers.get("location"), operationId).toBe(location(created));
  return created;
}

describe("OpenAPI document", () => {
  const document = buildOpenApiDocument();

  it("is an OpenAPI 3.1 document with both security schemes and the error schema", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.jsonSchemaDialect).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(document.info.title).toEqual(expect.any(String));
    expect(document.components.securitySchemes).toMatchObject({
      apiKey: { type: "http", scheme: "bearer" },
      dashboardJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
    });
    expect(document.components.schemas.Error).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["error", "code", "trace_id"]),
    });
    // Every $ref points at a schema that exists.
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/(schemas|headers)\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(0);
    for (const [, kind, name] of refs) {
      expect(document.components[kind as "schemas" | "headers"], `${kind}/${name}`).toHaveProperty([name!]);
    }
  });

  it("describes every operation with security, parameters, success and error responses", () => {
    for (const op of OPERATIONS) {
      const documented = document.paths[op.path]?.[op.method] as DocumentedOperation;
      expect(documented, `${op.method} ${op.path}`).toBeDefined();
      expect(documented.operationId).toBe(op.operationId);
      const scope = "scope" in op.access ? op.access.scope : undefined;
      expect(documented.security).toEqual(scope ? [{ apiKey: [scope] }] : [{ dashboardJwt: [] }]);
      const pathParams = documented.parameters.filter((p) => p.in === "path").map((p) => p.name);
      expect(pathParams).toEqual(pathParameterNames(op.path));
      const statuses = Object.keys(documented.responses);
      expect(statuses).toContain(String(op.response.status));
      expect(statuses).toEqual(expect.arrayContaining(["401", "500"]));
      if (scope) expect(statuses).toEqual(expect.arrayContaining(["403", "429"]));
      if (op.body || op.query) expect(statuses).toContain("400");
      if (op.body) expect(documented.requestBody!.content["application/json"].schema.$ref).toMatch(/Request$/);
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(documented.responses[status]!.content!["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it("documents the query parameters with their ranges and defaults", () => {
    const search = document.paths["/analytics_search/api/transactions"]!.get as DocumentedOperation;
    const byName = Object.fromEntries(search.parameters.map((p) => [p.name, p]));
    expect(Object.keys(byName)).toEqual(
      expect.arrayContaining(["size", "from", "sort", "order", "date_from", "date_to", "q", "event_id", "is_refunded"]),
    );
    expect(byName.size).toMatchObject({ in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 1000, default: 100 } });
    expect(byName.from?.schema).toMatchObject({ type: "integer", minimum: 0, default: 0 });
    expect(byName.sort?.schema).toMatchObject({ enum: ["date", "price", "customer_name"], default: "date" });
    expect(byName.order?.schema).toMatchObject({ enum: ["desc", "asc"], default: "desc" });
  });

  it("has example request bodies that the endpoints' own schemas accept", () => {
    for (const op of OPERATIONS.filter((candidate) => candidate.body)) {
      expect(op.bodyExample, op.operationId).toBeDefined();
      const parsed = op.body!.safeParse(op.bodyExample);
      expect(parsed.success, `${op.operationId}: ${parsed.error?.message}`).toBe(true);
    }
  });

  it("has a description and an example response, in the documented shape, for each operation", () => {
    for (const op of OPERATIONS) {
      const documented = document.paths[op.path]![op.method] as DocumentedOperation & { description?: string };
      expect(documented.description, op.operationId).toEqual(expect.stringMatching(/\w/));
      if (!op.response.schema) continue;
      const content = documented.responses[String(op.response.status)]!.content!["application/json"] as { example?: unknown };
      expect(content.example, op.operationId).toBeDefined();
      expect(op.response.schema.parse(content.example), op.operationId).toEqual(content.example);
    }
  });

  it("documents 503 on every operation, Idempotent-Replayed on POST answers and Location on 201s", () => {
    for (const op of OPERATIONS) {
      const documented = document.paths[op.path]![op.method] as { responses: Record<string, { headers: Record<string, unknown> }> };
      expect(documented.responses["503"]?.headers, op.operationId).toHaveProperty("Retry-After");
      const success = documented.responses[String(op.response.status)]!.headers;
      expect("Idempotent-Replayed" in success, op.operationId).toBe(op.method === "post");
      expect("Location" in success, op.operationId).toBe(op.response.status === 201);
    }
  });

  it("is what the README shows: every write endpoint's body and the complete POST /v1/orders", () => {
    const readme = readFileSync(path.resolve(import.meta.dirname, "..", "..", "README.md"), "utf8");
    // Compared without whitespace: the README indents its JSON inside list items.
    const squeeze = (text: string) => text.replace(/\s+/g, "");
    const writes = OPERATIONS.filter((op) => op.method !== "get");
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const op of writes) {
      expect(readme, op.operationId).toContain(`\`${op.method.toUpperCase()} ${op.path.replace(/\{([^}]+)\}/g, ":$1")}\``);
      if (op.bodyExample !== undefined) expect(squeeze(readme), op.operationId).toContain(squeeze(JSON.stringify(op.bodyExample)));
    }
    expect(squeeze(readme)).toContain(squeeze(JSON.stringify(operation("createOrder").response.example)));
  });

  it("has a webhooks section: one POST per event with the Order payload, every X-Webhook-* header and the signature rule", () => {
    expect(Object.keys(document.webhooks)).toEqual(["OrderCompleted", "OrderRefunded"]);
    for (const [eventType, { post }] of Object.entries(document.webhooks)) {
      expect(post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/TransactionOrder" });
      const example = post.requestBody.content["application/json"].example;
      expect(transactionOrderSchema.parse(example)).toEqual(example);
      expect(example.is_refunded).toBe(eventType === "OrderRefunded");
      expect(post.parameters.map((header) => [header.name, header.in])).toEqual(WEBHOOK_HEADERS.map((header) => [header.name, "header"]));
      for (const phrase of ["HMAC-SHA256", "<X-Webhook-Timestamp>.<raw body>", "whole signing secret", "`whsec_` prefix included", "v1=<hex>,v1=<hex>", "300 seconds"]) {
        expect(post.description, phrase).toContain(phrase);
      }
      // The example headers are a real signature of the example body: receivers can test their code on them.
      const headers = Object.fromEntries(post.parameters.map((header) => [header.name, header.example!]));
      expect(headers["X-Webhook-Event-Type"]).toBe(eventType);
      const now = Number(headers["X-Webhook-Timestamp"]);
      expect(verifyWebhook(JSON.stringify(example), headers, SECRET_EXAMPLE, { now })).toEqual(example);
      expect(Object.keys(post.responses)).toEqual(["2XX", "default"]);
    }
  });

  it("gives every timestamp the date-time format", () => {
    const timestamps: string[] = [];
    const visit = (schema: unknown, name: string) => {
      if (!schema || typeof schema !== "object") return;
      const node = schema as Record<string, unknown>;
      for (const [key, property] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (key.endsWith("_at")) {
          timestamps.push(`${name}.${key}`);
          expect(property.format, `${name}.${key}`).toBe("date-time");
        }
      }
      for (const child of Object.values(node)) {
        if (Array.isArray(child)) child.forEach((item) => visit(item, name));
        else visit(child, name);
      }
    };
    for (const [name, schema] of Object.entries(document.components.schemas)) visit(schema, name);
    expect(timestamps).toEqual(expect.arrayContaining(["Order.created_at", "Delivery.next_retry_at", "TransactionOrder.refunded_at"]));
  });
});

describe("GET /api/openapi.json and /docs/api", () => {
  useTestDatabase();
  const server = useTestServer();

  it("serves the document publicly", async () => {
    const response = await fetch(`${server.url()}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it("renders the reference page with every operation", async () => {
    const response = await fetch(`${server.url()}/docs/api`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("API reference");
    for (const op of OPERATIONS) {
      expect(html, op.path).toContain(`data-testid="operation-path">${op.path}</code>`);
      expect(html).toContain(`id="${op.operationId}"`);
      if ("scope" in op.access) expect(html).toContain(op.access.scope);
    }
    expect(html).toContain("Stockholm Arena"); // an example body
    // The webhooks: each event, its headers and the signature rule.
    for (const eventType of ["OrderCompleted", "OrderRefunded"]) expect(html).toContain(`data-testid="webhook-event">${eventType}</code>`);
    for (const header of WEBHOOK_HEADERS) expect(html).toContain(header.name);
    expect(html).toContain('data-testid="signature-rule"');
    // Written for API users: no references into internal documents, no doubled punctuation.
    expect(html).not.toMatch(/\bspec \d/i);
    expect(html).not.toContain(".;");
    // Every example scrolls by keyboard on a narrow screen.
    const examples = html.match(/<pre[^>]*>/g) ?? [];
    expect(examples.length).toBeGreaterThanOrEqual(OPERATIONS.length);
    for (const pre of examples) expect(pre).toContain('tabindex="0"');
  });

  it("matches real responses of the catalog, order, transactions and webhook endpoints", async () => {
    const tenant = await createTenant();
    const api = apiClient(server.url(), tenant.apiKey);
    const dashboard = apiClient(server.url(), tenant.userToken);

    const venue = await expectCreated<{ id: string }>(
      "createVenue",
      await api("/v1/venues", { method: "POST", body: operation("createVenue").bodyExample }),
      (created) => `/v1/venues/${created.id}`,
    );
    await expectDocumented("getVenue", await api(`/v1/venues/${venue.id}`));
    await expectDocumented("listVenues", await api("/v1/venues"));
    await expectDocumented(
      "updateVenue",
      await api(`/v1/venues/${venue.id}`, { method: "PATCH", body: operation("updateVenue").bodyExample }),
    );

    const eventExample = operation("createEvent").bodyExample as Record<string, unknown>;
    const event = await expectCreated<{ id: string }>(
      "createEvent",
      await api("/v1/events", {
        method: "POST",
        body: { ...eventExample, venue_id: venue.id, starts_at: hoursFromNow(24 * 30), ends_at: hoursFromNow(24 * 30 + 8) },
      }),
      (created) => `/v1/events/${created.id}`,
    );
    await expectDocumented("listEvents", await api("/v1/events?per_page=10"));
    const ticketExample = operation("createTicketType").bodyExample as Record<string, unknown>;
    const ticket = await expectCreated<{ id: string }>(
      "createTicketType",
      await api(`/v1/events/${event.id}/tickets`, {
        method: "POST",
        body: { ...ticketExample, sale_starts_at: hoursFromNow(-1), sale_ends_at: hoursFromNow(24 * 29) },
      }),
      (created) => `/v1/events/${event.id}/tickets/${created.id}`,
    );
    await expectDocumented("listTicketTypes", await api(`/v1/events/${event.id}/tickets`));

    const { campaign_code: _noCampaign, ...orderExample } = operation("createOrder").bodyExample as Record<string, unknown>;
    const order = await expectCreated<{ id: string }>(
      "createOrder",
      await api("/v1/orders", {
        method: "POST",
        body: { ...orderExample, event_id: event.id, items: [{ ticket_id: ticket.id, quantity: 2 }] },
      }),
      (created) => `/v1/orders/${created.id}`,
    );
    await expectDocumented("getOrder", await api(`/v1/orders/${order.id}`));
    await expectDocumented("listOrders", await api("/v1/orders"));
    const search = await expectDocumented<{ data: { total_count: number } }>(
      "searchTransactions",
      await api("/analytics_search/api/transactions?size=5"),
    );
    expect(search.data.total_count).toBe(1);
    await expectDocumented(
      "refundOrder",
      await api(`/v1/orders/${order.id}/refund`, { method: "POST", body: operation("refundOrder").bodyExample }),
    );
    await expectDocumented("listMemberships", await api("/v1/memberships"));
    await expectDocumented("listDeliveries", await dashboard("/webhooks/deliveries"));

    // Error bodies: the documented shape, with details on validation failures.
    const invalid = await api("/v1/venues", { method: "POST", body: { name: "" } });
    expect(invalid.status).toBe(400);
    const invalidBody = await invalid.json();
    expect(errorBodySchema.parse(invalidBody)).toEqual(invalidBody);
    expect(invalidBody.details.length).toBeGreaterThan(0);
    const missing = await api("/v1/orders/ord_00000000000000000000000000000000");
    expect(missing.status).toBe(404);
    const missingBody = await missing.json();
    expect(errorBodySchema.parse(missingBody)).toEqual(missingBody);
  });
});

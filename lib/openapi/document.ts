import type { z } from "zod";
import { componentSchemas, JSON_SCHEMA_DIALECT, jsonSchemaOf, type JsonSchema } from "./json-schema";
import { PERMISSIONS } from "@/lib/auth/permissions";
import type { Operation } from "@/lib/http/operation";
import { COMPONENTS, errorBodySchema } from "./components";
import { OPERATIONS, RESOURCES } from "./operations";
import { webhooksSection } from "./webhooks";

/** The tag of the document's `webhooks`: requests the service sends, not endpoints it serves. */
export const WEBHOOK_EVENTS_TAG = {
  name: "Webhook events",
  description: "Requests the service sends to an integration's URL, one per event; verify each by its signature.",
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

const TRACE_HEADER = { "X-Trace-Id": headerRef("X-Trace-Id") };
const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": headerRef("X-RateLimit-Limit"),
  "X-RateLimit-Remaining": headerRef("X-RateLimit-Remaining"),
  "X-RateLimit-Reset": headerRef("X-RateLimit-Reset"),
};

const SECURITY_SCHEMES = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "sk_ API key",
    description:
      "An organization API key: `Authorization: Bearer sk_…` (the bare `Authorization: sk_…` works too). " +
      "Each operation lists the scope it needs; `*` grants every scope.",
  },
  dashboardJwt: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "A dashboard user token (HS256 JWT) or a signed-in dashboard session; API keys are refused.",
  },
};

const HEADERS = {
  "X-Trace-Id": { description: "Identifies the request; equals trace_id of error bodies and of the transactions envelope", schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Requests allowed per rolling 60 seconds for this API key", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) at which the window has room again", schema: { type: "integer" } },
  "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } },
  "Idempotent-Replayed": {
    description: "true when this is the stored response of an earlier POST with the same Idempotency-Key and body",
    schema: { type: "string", enum: ["true"] },
  },
  Location: { description: "The path of the resource just created", schema: { type: "string" } },
};

/** `Create venue` → `CreateVenue`: component names of request bodies derive from the operation. */
const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);
export const requestComponentName = (op: Operation) => `${pascal(op.operationId)}Request`;

export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
}

function parameters(op: Operation): JsonSchema[] {
  const names = pathParameterNames(op.path);
  const described = Object.keys(op.params ?? {});
  if (names.join() !== described.join()) {
    throw new Error(`${op.operationId}: params ${described.join()} do not match the path parameters ${names.join()}`);
  }
  const path = names.map((name) => ({
    name,
    in: "path",
    required: true,
    description: op.params![name],
    schema: { type: "string" },
  }));
  const querySchema = op.query ? jsonSchemaOf(op.query, "input") : {};
  const queryProperties = (querySchema.properties ?? {}) as Record<string, JsonSchema>;
  const unknownNotes = Object.keys(op.queryNotes ?? {}).filter((name) => !(name in queryProperties));
  if (unknownNotes.length) throw new Error(`${op.operationId}: queryNotes for unknown parameters ${unknownNotes.join()}`);
  const required = new Set((querySchema.required as string[] | undefined) ?? []);
  const query = Object.entries(queryProperties).map(([name, { description: own, ...schema }]) => {
    const description = own ?? op.queryNotes?.[name];
    return { name, in: "query", required: required.has(name), ...(description ? { description } : {}), schema };
  });
  const idempotency =
    op.method === "post"
      ? [
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description:
              "Repeating a POST with the same key and body within 24 hours returns the first response without doing the work again; the same key with another body is 409.",
            schema: { type: "string", maxLength: 255 },
          },
        ]
      : [];
  return [...path, ...query, ...idempotency];
}

function errorResponse(description: string, extraHeaders: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...TRACE_HEADER, ...extraHeaders },
    content: { "application/json": { schema: ref("Error") } },
  };
}

/** The roles whose permission a dashboard operation requires (lib/auth/permissions). */
function dashboardRoles(op: Operation): readonly string[] {
  return "dashboard" in op.access ? PERMISSIONS[op.access.dashboard] : [];
}

/** The error statuses one operation can answer with, from what it takes and how it authenticates. */
function errorResponses(op: Operation): Record<string, ReturnType<typeof errorResponse>> {
  const scope = "scope" in op.access ? op.access.scope : undefined;
  const limited = scope ? RATE_LIMIT_HEADERS : {};
  const out: Record<string, ReturnType<typeof errorResponse>> = {};
  if (op.query || op.body) {
    out["400"] = errorResponse(
      `validation_failed: a bad ${op.body ? "body field" : "query parameter"}; details name each bad field` +
        (op.body ? ". invalid_json: the body is not JSON" : ""),
      limited,
    );
  }
  out["401"] = errorResponse(
    scope
      ? "unauthorized: missing, unknown, malformed or revoked API key"
      : "unauthorized: missing or invalid dashboard user token (API keys are not accepted)",
  );
  if (scope) out["403"] = errorResponse(`forbidden: the key lacks the scope ${scope}`, limited);
  else if ("dashboard" in op.access) {
    const permission = op.access.dashboard;
    out["403"] = errorResponse(`forbidden: the user's role is not one of ${PERMISSIONS[permission].join(", ")} (permission ${permission})`);
  }
  if (op.params) out["404"] = errorResponse("not_found: unknown id, or an id of another organization", limited);
  const conflicts = [op.conflict, op.method === "post" ? "The Idempotency-Key was used with another body." : undefined];
  if (conflicts.some(Boolean)) out["409"] = errorResponse(`conflict: ${conflicts.filter(Boolean).join(" ")}`, limited);
  if (op.body) {
    out["413"] = errorResponse("payload_too_large: the body exceeds 1 MiB", limited);
    out["415"] = errorResponse("unsupported_media_type: the body is not application/json", limited);
  }
  if (scope) out["429"] = errorResponse("rate_limited: too many requests for this key", { ...limited, "Retry-After": headerRef("Retry-After") });
  out["500"] = errorResponse("internal: an unexpected error (generic message)");
  // Every operation reads the database, if only to check the credential.
  out["503"] = errorResponse("service_unavailable: the database is unavailable; retry after the time given", {
    "Retry-After": headerRef("Retry-After"),
  });
  return out;
}

function operationObject(op: Operation, bodyRequired: boolean) {
  const scope = "scope" in op.access ? op.access.scope : undefined;
  const successHeaders = {
    ...TRACE_HEADER,
    ...(scope ? RATE_LIMIT_HEADERS : {}),
    ...(op.method === "post" ? { "Idempotent-Replayed": headerRef("Idempotent-Replayed") } : {}),
    ...(op.location ? { Location: headerRef("Location") } : {}),
  };
  const success = op.response.schema
    ? {
        description: op.response.description,
        headers: successHeaders,
        content: { "application/json": { schema: ref(op.response.name!), example: op.response.example } },
      }
    : {
        description: op.response.description,
        headers: successHeaders,
        ...(op.response.media && {
          content: Object.fromEntries(
            Object.entries(op.response.media).map(([type, example]) => [type, { schema: { type: "string" }, example }]),
          ),
        }),
      };
  return {
    operationId: op.operationId,
    tags: [op.resource.name],
    summary: op.summary,
    description: op.description,
    security: scope ? [{ apiKey: [scope] }] : [{ dashboardJwt: [] }],
    ...(scope ? { "x-required-scope": scope } : { "x-dashboard-only": true, "x-required-roles": dashboardRoles(op) }),
    parameters: parameters(op),
    ...(op.body
      ? {
          requestBody: {
            required: bodyRequired,
            content: {
              "application/json": {
                schema: ref(requestComponentName(op)),
                ...(op.bodyExample === undefined ? {} : { example: op.bodyExample }),
              },
            },
          },
        }
      : {}),
    responses: { [String(op.response.status)]: success, ...errorResponses(op) },
  };
}

function named(entries: [string, z.ZodType | undefined][]): Map<string, z.ZodType> {
  const byName = new Map<string, z.ZodType>();
  for (const [name, schema] of entries) {
    if (!schema) continue;
    const known = byName.get(name);
    if (known && known !== schema) throw new Error(`Two different schemas are both named ${name}`);
    byName.set(name, schema);
  }
  return byName;
}

/** The OpenAPI 3.1 document of the whole API, generated from the zod schemas the handlers validate with. */
export function buildOpenApiDocument() {
  for (const op of OPERATIONS) {
    if (op.response.schema && !(op.response.name && op.response.example !== undefined)) {
      throw new Error(`${op.operationId}: a response schema needs a name and an example`);
    }
    if ((op.response.status === 201) !== Boolean(op.location)) throw new Error(`${op.operationId}: a 201 has a Location, nothing else`);
  }
  const responseSchemas = componentSchemas(
    named([
      ["Error", errorBodySchema],
      ...COMPONENTS,
      ...OPERATIONS.map((op): [string, z.ZodType | undefined] => [op.response.name ?? "", op.response.schema]),
    ]),
    "output",
  );
  const requestSchemas = componentSchemas(
    named(OPERATIONS.map((op): [string, z.ZodType | undefined] => [requestComponentName(op), op.body])),
    "input",
  );

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    // A body whose every field is optional may be left out entirely.
    const bodyRequired = op.body ? !op.body.safeParse({}).success : false;
    (paths[op.path] ??= {})[op.method] = operationObject(op, bodyRequired);
  }

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: "Ticketing and order analytics API",
      version: "1.0.0",
      description:
        "Every response carries X-Trace-Id. Errors share one body: { error, code, trace_id, details? }. " +
        "Methods a path does not list answer 405 method_not_allowed. Money is in minor units. " +
        "Optional fields that are null are omitted. Unknown query parameters are ignored; unknown body fields are 400.",
    },
    servers: [{ url: "/" }],
    tags: [...RESOURCES, WEBHOOK_EVENTS_TAG].map((resource) => ({ name: resource.name, description: resource.description })),
    paths,
    webhooks: webhooksSection(WEBHOOK_EVENTS_TAG.name),
    components: {
      schemas: { ...responseSchemas, ...requestSchemas },
      securitySchemes: SECURITY_SCHEMES,
      headers: HEADERS,
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

let cached: OpenApiDocument | undefined;

/** Built once per process: the schemas do not change while it runs. */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}

import type { Metadata } from "next";
import { openApiDocument, requestComponentName, WEBHOOK_EVENTS_TAG } from "@/lib/openapi/document";
import type { JsonSchema } from "@/lib/openapi/json-schema";
import type { Operation } from "@/lib/http/operation";
import { OPERATIONS, RESOURCES } from "@/lib/openapi/operations";
import { constraintNotes, schemaFields, typeLabel, type FieldRow } from "@/lib/openapi/schema-fields";
import { anchor, FieldTable, JsonExample } from "./reference-blocks";
import { WebhookEvents } from "./webhook-events";

export const metadata: Metadata = { title: "API reference · Ticketing analytics" };

const METHOD_STYLES: Record<Operation["method"], string> = {
  get: "bg-sky-100 text-sky-900",
  post: "bg-emerald-100 text-emerald-900",
  patch: "bg-amber-100 text-amber-900",
  delete: "bg-rose-100 text-rose-900",
};

interface ParameterObject {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

interface ResponseObject {
  description: string;
}

function OperationCard({ op, components }: { op: Operation; components: Record<string, JsonSchema> }) {
  const documented = openApiDocument().paths[op.path]![op.method] as {
    parameters: ParameterObject[];
    responses: Record<string, ResponseObject>;
  };
  const parameterRows: FieldRow[] = documented.parameters.map((p) => ({
    name: `${p.name} (${p.in})`,
    type: typeLabel(p.schema, components),
    required: p.required,
    // A description ends a sentence; the constraints after it are a list.
    notes: [p.description?.replace(/\.$/, ""), constraintNotes(p.schema, components)].filter(Boolean).join("; "),
  }));
  const bodyRows = op.body ? schemaFields(components[requestComponentName(op)]!, components) : [];
  const responseRows = op.response.name ? schemaFields(components[op.response.name]!, components) : [];
  const errors = Object.entries(documented.responses).filter(([status]) => Number(status) >= 400);
  return (
    <article id={op.operationId} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 className="flex flex-wrap items-center gap-3">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_STYLES[op.method]}`}>{op.method}</span>
        <code className="font-mono text-sm font-semibold break-all" data-testid="operation-path">{op.path}</code>
      </h3>
      <p className="mt-2 font-medium">{op.summary}</p>
      <p className="mt-1 text-sm text-slate-700">{op.description}</p>
      <p className="mt-2 text-sm">
        <span className="font-medium">Auth: </span>
        {"scope" in op.access ? (
          <>
            API key (<code className="font-mono">Bearer sk_…</code>) with scope{" "}
            <code className="rounded bg-slate-100 px-1 font-mono">{op.access.scope}</code>
          </>
        ) : (
          <>Dashboard user JWT (API keys are refused)</>
        )}
      </p>
      <div className="mt-4 space-y-4">
        <FieldTable caption="Parameters" rows={parameterRows} />
        {op.body && <FieldTable caption="Request body" rows={bodyRows} />}
        {op.bodyExample !== undefined && <JsonExample label="Example request body" value={op.bodyExample} />}
        <div>
          <p className="text-sm">
            <span className="font-medium">Response {op.response.status}: </span>
            {op.response.description}
            {op.location && (
              <>
                , with <code className="font-mono">Location: {op.location}</code>
              </>
            )}
          </p>
          <FieldTable caption="Response fields" rows={responseRows} />
        </div>
        {op.response.example !== undefined && <JsonExample label={`Example response ${op.response.status}`} value={op.response.example} />}
        <div>
          <p className="pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">Errors</p>
          <ul className="space-y-0.5 text-sm">
            {errors.map(([status, response]) => (
              <li key={status}>
                <span className="font-mono font-semibold">{status}</span> {response.description}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </article>
  );
}

/** The API reference, generated from the same operation registry and zod schemas as /api/openapi.json. */
export default function ApiReferencePage() {
  const components = openApiDocument().components.schemas as Record<string, JsonSchema>;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <header className="mb-8">
        <h1 className="text-2xl font-bold">API reference</h1>
        <p className="mt-2 text-slate-700">
          Every endpoint of the ticketing and order analytics API, and the webhooks it sends. Send{" "}
          <code className="rounded bg-slate-100 px-1 font-mono">Authorization: Bearer sk_…</code>; every response carries{" "}
          <code className="font-mono">X-Trace-Id</code>, and every error has the body{" "}
          <code className="rounded bg-slate-100 px-1 font-mono">{"{ error, code, trace_id, details? }"}</code>. Money is in
          minor units. The machine-readable OpenAPI 3.1 document is at{" "}
          {/* A JSON document from an API route, not a page: a plain link, which the Pages Router lint rule mistakes for one. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
          <a className="text-sky-800 underline" href="/api/openapi.json">
            /api/openapi.json
          </a>
          .
        </p>
        <nav aria-label="Resources" className="mt-4">
          <ul className="flex flex-wrap gap-2 text-sm">
            {RESOURCES.map((resource) => (
              <li key={resource.name}>
                <a className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-100" href={`#${anchor(resource.name)}`}>
                  {resource.name}
                </a>
              </li>
            ))}
            <li>
              <a className="rounded border border-slate-300 bg-white px-2 py-1 hover:bg-slate-100" href={`#${anchor(WEBHOOK_EVENTS_TAG.name)}`}>
                {WEBHOOK_EVENTS_TAG.name}
              </a>
            </li>
          </ul>
        </nav>
      </header>
      <main className="space-y-10">
        {RESOURCES.map((resource) => (
          <section key={resource.name} id={anchor(resource.name)} aria-labelledby={`${anchor(resource.name)}-title`} className="scroll-mt-4">
            <h2 id={`${anchor(resource.name)}-title`} className="text-xl font-semibold">
              {resource.name}
            </h2>
            <p className="mb-4 text-sm text-slate-700">{resource.description}</p>
            <div className="space-y-4">
              {OPERATIONS.filter((op) => op.resource === resource).map((op) => (
                <OperationCard key={op.operationId} op={op} components={components} />
              ))}
            </div>
          </section>
        ))}
        <WebhookEvents />
      </main>
    </div>
  );
}

import { openApiDocument, WEBHOOK_EVENTS_TAG } from "@/lib/openapi/document";
import type { JsonSchema } from "@/lib/openapi/json-schema";
import { schemaFields, type FieldRow } from "@/lib/openapi/schema-fields";
import { SIGNATURE_RULE, WEBHOOK_EVENTS, WEBHOOK_PAYLOAD_COMPONENT } from "@/lib/openapi/webhooks";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/db/schema/webhooks";
import { anchor, FieldTable, JsonExample } from "./reference-blocks";

interface DocumentedWebhook {
  summary: string;
  parameters: { name: string; required: boolean; description: string; schema: JsonSchema; example?: string }[];
  responses: Record<string, { description: string }>;
}

/** Text with `backtick` spans, as the document's descriptions write code. */
function WithCode({ text }: { text: string }) {
  return text.split("`").map((part, i) =>
    i % 2 ? (
      <code key={i} className="rounded bg-slate-100 px-1 font-mono text-xs break-all">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

function WebhookCard({ eventType, webhook }: { eventType: WebhookEventType; webhook: DocumentedWebhook }) {
  const headerRows: FieldRow[] = webhook.parameters.map((header) => ({
    name: header.name,
    type: "string",
    required: header.required,
    notes: header.description,
  }));
  const example = Object.fromEntries(webhook.parameters.map((header) => [header.name, header.example]));
  return (
    <article id={`webhook-${anchor(eventType)}`} className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h3 className="flex flex-wrap items-center gap-3">
        <span className="rounded bg-emerald-100 px-2 py-0.5 font-mono text-xs font-bold text-emerald-900 uppercase">post</span>
        <code className="font-mono text-sm font-semibold" data-testid="webhook-event">
          {eventType}
        </code>
        <span className="text-sm text-slate-600">to the integration&apos;s URL</span>
      </h3>
      <p className="mt-2 font-medium">{webhook.summary}</p>
      <p className="mt-1 text-sm text-slate-700">
        <WithCode text={WEBHOOK_EVENTS[eventType].fires} />
      </p>
      <div className="mt-4 space-y-4">
        <FieldTable caption="Headers" rows={headerRows} />
        <JsonExample label="Example headers (signed with two secrets during a rotation)" value={example} />
        <JsonExample label="Example payload" value={WEBHOOK_EVENTS[eventType].example} />
        <ul className="space-y-0.5 text-sm">
          {Object.entries(webhook.responses).map(([status, response]) => (
            <li key={status}>
              <span className="font-mono font-semibold">{status === "default" ? "Other" : status}</span> {response.description}
            </li>
          ))}
        </ul>
      </div>
    </article>
  );
}

/** The document's `webhooks`: what each event's request carries and how to verify it. */
export function WebhookEvents() {
  const document = openApiDocument();
  const components = document.components.schemas as Record<string, JsonSchema>;
  const payloadRows = schemaFields(components[WEBHOOK_PAYLOAD_COMPONENT]!, components);
  const webhooks: Record<string, { post: DocumentedWebhook }> = document.webhooks;
  const id = anchor(WEBHOOK_EVENTS_TAG.name);
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-4">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {WEBHOOK_EVENTS_TAG.name}
      </h2>
      <p className="mb-4 text-sm text-slate-700">{WEBHOOK_EVENTS_TAG.description}</p>
      <div className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm" data-testid="signature-rule">
        <h3 className="font-semibold">Signature rule</h3>
        <p className="mt-1 text-slate-800">
          <WithCode text={SIGNATURE_RULE} />
        </p>
      </div>
      <div className="space-y-4">
        {WEBHOOK_EVENT_TYPES.map((eventType) => (
          <WebhookCard key={eventType} eventType={eventType} webhook={webhooks[eventType]!.post} />
        ))}
        {/* Every event sends the same object, so its fields are listed once. */}
        <div className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <FieldTable caption="Payload of every event: the order (TransactionOrder, as in the transactions search)" rows={payloadRows} />
        </div>
      </div>
    </section>
  );
}

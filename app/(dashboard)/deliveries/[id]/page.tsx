import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { isFinished, orderNumberOf } from "@/lib/dashboard/deliveries";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireSession } from "@/lib/dashboard/session";
import { fromPublicId } from "@/lib/ids";
import { getDeliveryDetail, listAttempts } from "@/lib/webhooks/deliveries";
import type { AttemptJson } from "@/lib/webhooks/delivery-schemas";
import { getIntegration } from "@/lib/webhooks/integrations";
import { ApiTokenButton } from "../../_components/api-token-button";
import { AutoRefresh } from "../auto-refresh";
import { RedeliverButton } from "../redeliver-button";
import { OrderLink, StatusBadge, TestBadge } from "../status-badge";
import { CopyButton } from "../../_components/copy-button";
import { DateTime } from "../../_components/date-time";
import { Card, cardClasses } from "../../_components/card";
import { DetailHeader } from "../../_components/detail-header";
import { DetailItem } from "../../_components/details-list";

export const metadata: Metadata = { title: "Delivery · Ticketing analytics" };

const MAX_ATTEMPTS = 5;

export default async function DeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession("deliveries");
  const { id } = await params;
  const [{ delivery, rawPayload }, attempts] = await Promise.all([
    orNotFound(getDeliveryDetail(session.organizationId, id)),
    orNotFound(listAttempts(session.organizationId, id)),
  ]);
  const orderUuid = delivery.order_id ? fromPublicId("order", delivery.order_id) : null;
  const [integration, orderNumber] = await Promise.all([
    orNotFound(getIntegration(session.organizationId, delivery.integration_id, { includeDeleted: true })),
    orderNumberOf(session.organizationId, orderUuid),
  ]);

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div>
        <DetailHeader
          back={{ href: "/deliveries", label: "All deliveries" }}
          title="Delivery"
          subtitle={
            <p className="font-mono break-all text-slate-700" data-testid="delivery-id">
              {delivery.id}
            </p>
          }
          actions={<RedeliverButton deliveryId={delivery.id} />}
        />
        <div className="mt-2">
          <AutoRefresh active={!isFinished(delivery.status)} />
        </div>
      </div>

      <dl className={`grid gap-4 p-4 text-sm sm:grid-cols-2 sm:p-6 ${cardClasses}`}>
        <DetailItem label="Status">
          <span data-testid="delivery-status">
            <StatusBadge status={delivery.status} />
          </span>
        </DetailItem>
        <DetailItem label="Integration">
          <span className="font-mono text-xs break-all">{integration.url}</span>
        </DetailItem>
        <DetailItem label="Event">
          <span className="flex flex-wrap items-center gap-2">
            <code className="font-mono">{delivery.event_type}</code>
            {delivery.test && <TestBadge />}
          </span>
        </DetailItem>
        <DetailItem label="Order">
          {delivery.test ? <span className="text-slate-600">Sample order (test delivery)</span> : <OrderLink uuid={orderUuid} number={orderNumber} />}
        </DetailItem>
        <DetailItem label="Attempts">
          <span className="tabular-nums">
            {delivery.attempt_count} of at most {MAX_ATTEMPTS}
          </span>
        </DetailItem>
        <DetailItem label="Created">
          <DateTime iso={delivery.created_at} />
        </DetailItem>
        <DetailItem label="Last attempt">
          <DateTime iso={delivery.last_attempt_at} />
        </DetailItem>
        <DetailItem label="Next retry (next_retry_at)">
          <DateTime iso={delivery.next_retry_at} />
        </DetailItem>
        {delivery.redelivery_of && (
          <DetailItem label="Redelivery of">
            <Link
              href={`/deliveries/${delivery.redelivery_of}`}
              className="font-mono text-xs break-all text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
            >
              {delivery.redelivery_of}
            </Link>
          </DetailItem>
        )}
        {delivery.redeliveries.length > 0 && (
          <DetailItem label="Redelivered as">
            <ul className="space-y-1">
              {delivery.redeliveries.map((redelivery) => (
                <li key={redelivery}>
                  <Link
                    href={`/deliveries/${redelivery}`}
                    className="font-mono text-xs break-all text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700"
                  >
                    {redelivery}
                  </Link>
                </li>
              ))}
            </ul>
          </DetailItem>
        )}
      </dl>

      <Card labelledBy="payload-heading" padded>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="payload-heading" className="text-base font-semibold">
            Payload
          </h2>
          <CopyButton text={rawPayload} label="Copy raw" />
        </div>
        <p className="mt-1 text-sm text-slate-600">The request body, the same bytes on every attempt; shown formatted.</p>
        <pre tabIndex={0} data-testid="payload" className={`mt-3 max-h-96 ${codeBlockClasses}`}>
          {JSON.stringify(delivery.payload, null, 2)}
        </pre>
      </Card>

      <section aria-labelledby="attempts-heading" className="space-y-3">
        <h2 id="attempts-heading" className="text-base font-semibold">
          Attempts
        </h2>
        {attempts.data.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
            No attempt yet. The first one starts within seconds of the delivery being created.
          </p>
        ) : (
          <ol className="space-y-4 border-l-2 border-slate-300 pl-4 sm:pl-6">
            {attempts.data.map((attempt) => (
              <AttemptItem key={attempt.attempt_number} attempt={attempt} />
            ))}
          </ol>
        )}
      </section>

      <Card labelledBy="token-heading" padded>
        <h2 id="token-heading" className="text-base font-semibold">
          Inspect through the API
        </h2>
        <p className="mt-1 mb-3 text-sm text-slate-600">
          <code className="font-mono break-all">GET /webhooks/deliveries/{delivery.id}/attempts</code> takes a dashboard
          user token, valid for one hour.
        </p>
        <ApiTokenButton />
      </Card>
    </div>
  );
}

function AttemptItem({ attempt }: { attempt: AttemptJson }) {
  const ok = attempt.status_code !== undefined && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <li className="relative" data-testid="attempt">
      <span
        aria-hidden="true"
        className={`absolute top-4 -left-[1.4rem] h-3 w-3 rounded-full ring-4 ring-slate-50 sm:-left-[1.9rem] ${
          ok ? "bg-emerald-600" : "bg-red-600"
        }`}
      />
      <article className={`${cardClasses} p-4`}>
        <h3 className="flex flex-wrap items-baseline justify-between gap-2 font-semibold">
          <span>Attempt {attempt.attempt_number}</span>
          <DateTime iso={attempt.started_at ?? attempt.created_at} seconds />
        </h3>
        {attempt.request_url && (
          <p className="mt-1 font-mono text-xs break-all text-slate-700">
            {attempt.request_method} {attempt.request_url}
          </p>
        )}
        <dl className="mt-2 grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-600">Status code</dt>
            <dd className={`font-medium tabular-nums ${ok ? "text-emerald-800" : "text-red-800"}`} data-testid="attempt-status-code">
              {attempt.status_code ?? "none"}
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">Duration</dt>
            <dd className="tabular-nums">{attempt.duration_ms.toLocaleString("en-GB")} ms</dd>
          </div>
          {attempt.error_message && (
            <div className="col-span-2 sm:col-span-3">
              <dt className="text-slate-600">Error</dt>
              <dd className="text-red-800">{attempt.error_message}</dd>
            </div>
          )}
        </dl>
        <div className="mt-3 grid gap-3 lg:grid-cols-3">
          <Block title="Request headers" testId="request-headers">
            {attempt.request_headers ? headerLines(attempt.request_headers) : "(nothing was sent)"}
          </Block>
          <Block title="Response headers" testId="response-headers">
            {attempt.response_headers ? headerLines(attempt.response_headers) : "(no response)"}
          </Block>
          <Block
            title={`Response body${attempt.response_body !== undefined ? ` (${attempt.response_body.length.toLocaleString("en-GB")} characters)` : ""}`}
            testId="response-body"
          >
            {attempt.response_body === undefined ? "(no response)" : attempt.response_body || "(empty)"}
          </Block>
        </div>
      </article>
    </li>
  );
}

const codeBlockClasses = "overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap break-all text-slate-100";

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
}

/** One of an attempt's request headers, response headers and response body, side by side on wide screens. */
function Block({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="min-w-0">
      <h4 className="text-sm font-medium">{title}</h4>
      <pre tabIndex={0} data-testid={testId} className={`mt-1 max-h-64 ${codeBlockClasses}`}>
        {children}
      </pre>
    </section>
  );
}



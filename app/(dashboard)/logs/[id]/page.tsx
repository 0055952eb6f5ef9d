import type { Metadata } from "next";
import Link from "next/link";
import { dashboardLinkOf } from "@/lib/dashboard/request-log";
import { orNotFound } from "@/lib/dashboard/not-found";
import { requireSession } from "@/lib/dashboard/session";
import { getRequestLogEntry } from "@/lib/request-log/entries";
import { Card, cardClasses } from "../../_components/card";
import { CopyButton } from "../../_components/copy-button";
import { DateTime } from "../../_components/date-time";
import { DetailItem } from "../../_components/details-list";
import { DetailHeader } from "../../_components/detail-header";
import { StatusCode } from "../status-code";

export const metadata: Metadata = { title: "Request · Ticketing analytics" };

/** The stored body indented when it is whole JSON; a cut body stays as stored, marker included. */
function formatted(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export default async function RequestPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession("logs");
  const entry = await orNotFound(getRequestLogEntry(session.organizationId, (await params).id));
  const link = dashboardLinkOf(entry);

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <DetailHeader
        back={{ href: "/logs", label: "All requests" }}
        title={
          <span className="font-mono break-all">
            {entry.method} {entry.path}
          </span>
        }
        badge={<StatusCode status={entry.status} />}
        subtitle={
          <p className="font-mono break-all text-slate-700" data-testid="request-trace-id">
            {entry.trace_id}
          </p>
        }
      />

      <dl className={`grid gap-4 p-4 text-sm sm:grid-cols-2 sm:p-6 ${cardClasses}`}>
        <DetailItem label="Time (UTC)">
          <DateTime iso={entry.created_at} seconds />
        </DetailItem>
        <DetailItem label="Duration">
          <span className="tabular-nums">{entry.duration_ms.toFixed(2)} ms</span>
        </DetailItem>
        <DetailItem label="Query">{entry.query ? <code className="font-mono break-all">?{entry.query}</code> : <None />}</DetailItem>
        <DetailItem label="API key">
          <code className="font-mono break-all">{entry.key_id}</code>
        </DetailItem>
        <DetailItem label="Client IP">{entry.client_ip ? <code className="font-mono">{entry.client_ip}</code> : <None />}</DetailItem>
        <DetailItem label="User agent">{entry.user_agent ? <span className="break-all">{entry.user_agent}</span> : <None />}</DetailItem>
        <DetailItem label="Created or changed">
          {link ? (
            <Link href={link.href} className="font-mono break-all text-blue-800 underline focus-visible:outline-2 focus-visible:outline-blue-700">
              {link.label}
            </Link>
          ) : entry.created_resource ? (
            <code className="font-mono break-all">{entry.created_resource}</code>
          ) : (
            <None />
          )}
        </DetailItem>
      </dl>

      <Card labelledBy="body-heading" padded>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="body-heading" className="text-base font-semibold">
            Request body
          </h2>
          {entry.request_body !== undefined && <CopyButton text={entry.request_body} label="Copy body" />}
        </div>
        {entry.request_body === undefined ? (
          <p className="mt-2 text-sm text-slate-600">{entry.method === "GET" ? "Reads have no body." : "No body was stored (none was sent, or it was not JSON)."}</p>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-600">
              Fields named like secrets (password, token, key, card…) are stored as &quot;[redacted]&quot;.
              {entry.request_body_truncated && " The body was longer than 10 KB and is cut at that size."}
            </p>
            <pre
              tabIndex={0}
              aria-label="Request body as stored"
              data-testid="request-body"
              className="mt-3 max-h-[32rem] overflow-auto rounded-lg bg-slate-900 p-3 font-mono text-xs whitespace-pre-wrap break-all text-slate-50 focus-visible:outline-2 focus-visible:outline-blue-700"
            >
              {formatted(entry.request_body)}
            </pre>
          </>
        )}
      </Card>
    </div>
  );
}


function None() {
  return <span className="text-slate-600">–</span>;
}

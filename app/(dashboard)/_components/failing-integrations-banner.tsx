import Link from "next/link";
import { listAutoDisabledIntegrations } from "@/lib/webhooks/auto-disable";

/** Names every webhook the system disabled because its deliveries kept failing; nothing when there is none. */
export async function FailingIntegrationsBanner({ organizationId }: { organizationId: string }) {
  const disabled = await listAutoDisabledIntegrations(organizationId);
  if (disabled.length === 0) return null;
  return (
    <div role="alert" data-testid="failing-integrations-banner" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-medium">
        {disabled.length === 1
          ? "A webhook was disabled because its deliveries kept failing:"
          : `${disabled.length} webhooks were disabled because their deliveries kept failing:`}
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        {disabled.map((integration) => (
          <li key={integration.id}>
            <span className="break-all">{integration.url}</span>
            {integration.disabledAt && (
              <>
                {" "}
                <span className="whitespace-nowrap">(since {integration.disabledAt.toISOString().slice(0, 16).replace("T", " ")} UTC)</span>
              </>
            )}
          </li>
        ))}
      </ul>
      <p className="mt-2">
        Fix the receiver, then enable it again on <Link href="/integrations" className="font-medium underline">Integrations</Link>; its
        paused deliveries go out then.
      </p>
    </div>
  );
}

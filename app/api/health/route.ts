import { newTraceId } from "@/lib/http/errors";
import { options } from "@/lib/http/route-exports";
import { RETRY_AFTER_SECONDS } from "@/lib/dashboard/unavailable-page";
import { databaseHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const database = await databaseHealth();
  const healthy = database.status === "ok";
  return Response.json(
    { status: healthy ? "ok" : "degraded", database },
    {
      status: healthy ? 200 : 503,
      headers: { "X-Trace-Id": newTraceId(), ...(healthy ? {} : { "Retry-After": String(RETRY_AFTER_SECONDS) }) },
    },
  );
}

export const OPTIONS = options(["GET"]);

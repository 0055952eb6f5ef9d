import { newTraceId } from "@/lib/http/errors";
import { options } from "@/lib/http/route-exports";
import { databaseHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const database = await databaseHealth();
  const healthy = database.status === "ok";
  return Response.json(
    { status: healthy ? "ok" : "degraded", database },
    { status: healthy ? 200 : 503, headers: { "X-Trace-Id": newTraceId() } },
  );
}

export const OPTIONS = options(["GET"]);

import { servedFunctions } from "@/inngest/serve";
import { newTraceId, notFound, toWebResponse } from "@/lib/http/errors";
import { errorResponse } from "@/lib/http/route";
import { options, webHandler, withTraceId } from "@/lib/http/route-exports";

export const dynamic = "force-dynamic";

// Without Inngest keys the functions run in-process; answering 404 means nobody can trigger unsigned runs.
const notServed = async () => toWebResponse(errorResponse(notFound("Inngest endpoint"), newTraceId()));
const served = servedFunctions();

export const GET = served ? withTraceId(served.GET) : notServed;
export const POST = served ? withTraceId(served.POST) : notServed;
export const PUT = served ? withTraceId(served.PUT) : notServed;
export const OPTIONS = served ? webHandler(options(["GET", "POST", "PUT"])) : notServed;

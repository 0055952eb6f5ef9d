import { serve } from "inngest/next";
import { inngestCloudMode } from "@/lib/env";
import { inngest } from "./client";
import { functions } from "./functions";

/** The handlers Inngest calls when keys are set; null in the embedded mode, where functions run in-process. */
export function servedFunctions() {
  return inngestCloudMode ? serve({ client: inngest, functions }) : null;
}

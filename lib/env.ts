import "server-only";
import { parseEnv, type Env } from "./env-schema";

export { parseEnv, type Env };

export const env: Env = parseEnv(process.env);

export const inngestCloudMode = Boolean(env.INNGEST_EVENT_KEY && env.INNGEST_SIGNING_KEY);

/** Embedded engine, but deliveries run in `npm start`'s delivery worker: this process only sends their events there. */
export const deliveriesInWorker = !inngestCloudMode && env.WEBHOOK_DELIVERIES === "worker";

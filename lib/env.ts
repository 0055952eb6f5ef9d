import "server-only";
import { parseEnv, type Env } from "./env-schema";

export { parseEnv, type Env };

export const env: Env = parseEnv(process.env);

export const inngestCloudMode = Boolean(env.INNGEST_EVENT_KEY && env.INNGEST_SIGNING_KEY);

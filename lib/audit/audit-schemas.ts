import { z } from "zod";
import { AUDIT_ACTOR_TYPES } from "@/db/schema";
import { createdRangeInOrder, createdRangeShape } from "@/lib/http/created-range";
import { paginationMetaSchema, paginationQuerySchema } from "@/lib/http/pagination";
import { AUDIT_ACTION_NAMES } from "./actions";

export const listAuditLogQuerySchema = paginationQuerySchema
  .extend({
    actor: z.string().trim().min(1).max(320).optional().describe("An actor's id (user or API key), or the start of their label: an e-mail or a key's sk_… prefix, any case"),
    action: z.enum(AUDIT_ACTION_NAMES).optional().describe("Only entries of this action"),
    ...createdRangeShape,
  })
  .refine(...createdRangeInOrder);

export const auditEntrySchema = z.object({
  id: z.string(),
  created_at: z.iso.datetime(),
  action: z.string().describe("What happened, dotted: api_key.revoked, integration.secret_rotated, …"),
  actor: z
    .object({
      type: z.enum(AUDIT_ACTOR_TYPES),
      id: z.string().nullable().describe("The user's or API key's id; null for the system (admin CLI) and for a sign-in with an unknown e-mail"),
      label: z.string().describe("The user's e-mail, the key's prefix and name, or which tool (admin CLI)"),
    })
    .describe("Who made the change"),
  target: z
    .object({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() })
    .describe("What the change was made to: its type, id (the public id where the API has one) and a readable label"),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).describe("A few facts about the change (a new role, a count); never a secret"),
});

export const auditLogListSchema = z.object({ data: z.array(auditEntrySchema), meta: paginationMetaSchema });

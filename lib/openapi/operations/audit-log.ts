import { auditLogListSchema, listAuditLogQuerySchema } from "@/lib/audit/audit-schemas";
import { defineResource } from "@/lib/http/operation";
import { onePage } from "./examples";

const AUDIT_ENTRY_EXAMPLE = {
  id: "0190f0a1-b2c3-7d4e-8f9a-0b1c2d3e4f60",
  created_at: "2026-03-01T09:00:00.000Z",
  action: "api_key.revoked",
  actor: { type: "user", id: "0190f0a1-b2c3-7d4e-8f9a-0b1c2d3e4f61", label: "anna.berg@example.com" },
  target: { type: "api_key", id: "0190f0a1-b2c3-7d4e-8f9a-0b1c2d3e4f62", label: "CI deploys" },
  ip_address: "203.0.113.7",
  user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15",
  details: { prefix: "sk_Xy12AbC" },
};

export const AUDIT_LOG = defineResource(
  {
    name: "Audit log",
    description: "The organization's security history: who changed keys, integrations, secrets, members, events and orders, from where.",
  },
  {
    listAuditLog: {
      method: "get",
      path: "/v1/audit-log",
      summary: "List audit log entries",
      description:
        "A page of the organization's audit log, newest first, optionally of one actor, one action or a time window. " +
        "Entries are append-only and kept AUDIT_LOG_RETENTION_DAYS (365 by default).",
      access: { scope: "audit:read" },
      query: listAuditLogQuerySchema,
      response: { status: 200, description: "A page of audit log entries", schema: auditLogListSchema, name: "AuditLogList", example: onePage(AUDIT_ENTRY_EXAMPLE) },
    },
  },
);

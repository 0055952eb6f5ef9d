import type { Operation, Resource } from "@/lib/http/operation";
import { AUDIT_LOG } from "./audit-log";
import { EVENTS } from "./events";
import { MEMBERSHIPS } from "./memberships";
import { ORDERS } from "./orders";
import { REQUEST_LOG } from "./request-log";
import { TICKET_TYPES } from "./ticket-types";
import { TRANSACTIONS } from "./transactions";
import { VENUES } from "./venues";
import { WEBHOOK_DELIVERIES } from "./webhook-deliveries";
import { WEBHOOK_INTEGRATIONS } from "./webhook-integrations";

/**
 * Every operation of the API, in the order of the document and the reference page: the one list the OpenAPI
 * document walks. A new resource's module is added here; a new operation only to its resource's module.
 */
export const OPERATIONS: Operation[] = [
  TRANSACTIONS,
  ORDERS,
  VENUES,
  EVENTS,
  TICKET_TYPES,
  MEMBERSHIPS,
  WEBHOOK_DELIVERIES,
  WEBHOOK_INTEGRATIONS,
  AUDIT_LOG,
  REQUEST_LOG,
].flatMap(
  (operations) => Object.values(operations),
);

export const RESOURCES: Resource[] = [...new Set(OPERATIONS.map((op) => op.resource))];

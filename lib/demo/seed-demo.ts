import { and, eq } from "drizzle-orm";
import { db, type Queryable, type Transaction } from "@/db/client";
import {
  apiKeys,
  campaigns,
  events,
  memberships,
  orderCampaigns,
  orderItems,
  orders,
  organizations,
  ticketTypes,
  venues,
} from "@/db/schema";
import { createApiKey, demoApiKey } from "@/lib/auth/api-keys";
import { setStockFromOrders } from "@/lib/catalog/ticket-stock";
import { sha256Hex } from "@/lib/auth/secrets";
import { createUser, findUserByEmail } from "@/lib/auth/users";
import { demoOrganizationRow, demoRows } from "./demo-rows";
import { reserveOrderNumbers } from "@/lib/orders/order-numbers";

export const DEMO_LOGIN = { email: "admin@demo.test", password: "demo-password" } as const;
export const DEMO_KEY_NAME = "Demo key";

export interface DemoSeedResult {
  organizationId: string;
  login: { email: string; password: string };
  apiKey: string;
  created: boolean;
}

/**
 * Creates the demo organization with a year of sales, or, when it exists, only re-aligns the demo key
 * with the current AUTH_SECRET. Everything is inserted directly: no order goes through createOrder,
 * so no webhook fires for historical demo orders.
 */
export async function seedDemoData(q: Queryable = db): Promise<DemoSeedResult> {
  const existing = await findDemoOrganization(q);
  let organizationId = existing;
  if (existing) await ensureDemoKey(existing, q);
  else organizationId = await q.transaction((tx) => createDemoOrganization(tx, new Date()));
  return {
    organizationId: organizationId!,
    login: { ...DEMO_LOGIN },
    apiKey: demoApiKey(),
    created: !existing,
  };
}

/** The demo organization's id, identified by its admin user (e-mail addresses are unique). */
export async function findDemoOrganization(q: Queryable = db): Promise<string | null> {
  const user = await findUserByEmail(DEMO_LOGIN.email, q);
  return user?.organizationId ?? null;
}

/**
 * The demo key is derived from AUTH_SECRET; when the secret changed since seeding, the stored hash is
 * replaced so the key printed at start-up works. A revoked demo key stays revoked.
 */
export async function ensureDemoKey(organizationId: string, q: Queryable = db): Promise<void> {
  const key = demoApiKey();
  const [row] = await q
    .select({ id: apiKeys.id, keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.name, DEMO_KEY_NAME)))
    .limit(1);
  if (!row) {
    await createApiKey({ organizationId, name: DEMO_KEY_NAME, scopes: ["*"], rateLimitPerMinute: 600 }, q, key);
  } else if (row.keyHash !== sha256Hex(key)) {
    await q
      .update(apiKeys)
      .set({ keyHash: sha256Hex(key), displayPrefix: key.slice(0, 10) })
      .where(eq(apiKeys.id, row.id));
  }
}

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>, size = 500) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

async function createDemoOrganization(tx: Transaction, now: Date): Promise<string> {
  const [org] = await tx.insert(organizations).values(demoOrganizationRow(now)).returning({ id: organizations.id });
  const organizationId = org!.id;
  await createUser({ organizationId, email: DEMO_LOGIN.email, password: DEMO_LOGIN.password, name: "Demo Admin" }, tx);
  await ensureDemoKey(organizationId, tx);

  const rows = demoRows(organizationId, now);
  await tx.insert(venues).values(rows.venues);
  await tx.insert(events).values(rows.events);
  await tx.insert(campaigns).values(rows.campaigns);
  await tx.insert(memberships).values(rows.memberships);

  const numbers = await reserveOrderNumbers(tx, organizationId, rows.orders.length);
  rows.orders.forEach((o, i) => (o.orderNumber = numbers[i]!));

  await tx.insert(ticketTypes).values(rows.ticketTypes);
  await insertInChunks(rows.orders, (chunk) => tx.insert(orders).values(chunk));
  await insertInChunks(rows.orderItems, (chunk) => tx.insert(orderItems).values(chunk));
  await insertInChunks(rows.orderCampaigns, (chunk) => tx.insert(orderCampaigns).values(chunk));
  await setStockFromOrders(tx, organizationId);
  return organizationId;
}

import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { listOrderDeliveries } from "@/lib/dashboard/deliveries";
import { formatMoney } from "@/lib/dashboard/format";
import { requireSession } from "@/lib/dashboard/session";
import { findTransactionOrder } from "@/lib/orders/transaction-order";
import { CartItemsTable } from "./cart-items-table";
import { DateTime } from "../../_components/date-time";
import { RefundForm } from "./refund-form";
import { Card } from "../../_components/card";
import { DetailHeader } from "../../_components/detail-header";
import { DetailItem as Item, DetailsList } from "../../_components/details-list";
import { DeliveriesTable } from "../../deliveries/deliveries-table";

export const metadata: Metadata = { title: "Order · Ticketing analytics" };

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireSession("read");
  const order = await findTransactionOrder(session.organizationId, (await params).id);
  if (!order) notFound();
  // Deliveries carry payloads: only the roles that may read those see them.
  const deliveries = can(session.role, "deliveries") ? await listOrderDeliveries(session.organizationId, order.uuid) : null;
  const money = (minor: number) => formatMoney(minor, order.cart.currency);
  const eventName = order.cart.items[0]?.event_name;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <DetailHeader
        back={{ href: "/orders", label: "Orders" }}
        title={`Order #${order.order_number}`}
        badge={order.is_refunded ? (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-sm font-medium text-amber-900" data-testid="order-status">
            Refunded
          </span>
        ) : (
          <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-sm font-medium text-emerald-900" data-testid="order-status">
            Paid
          </span>
        )}
        subtitle={eventName}
      />

      <Card labelledBy="summary-heading" padded>
        <h2 id="summary-heading" className="mb-3 text-base font-semibold">
          Summary
        </h2>
        <DetailsList>
          <Item label="Customer">{order.customer_name}</Item>
          <Item label="Email">
            <span className="break-all">{order.email}</span>
          </Item>
          {order.phone_number && <Item label="Phone">{order.phone_number}</Item>}
          <Item label="Placed">
            <DateTime iso={order.created_at} />
          </Item>
          <Item label="Total">
            <span className="tabular-nums">{money(order.total_price)}</span>
            {order.cart.original_price !== order.total_price && (
              <span className="text-slate-600"> (before discounts {money(order.cart.original_price)})</span>
            )}
          </Item>
          <Item label="Payment">
            {order.payment_method} · {order.payment_method_brand}
          </Item>
          <Item label="Source">{order.order_source}</Item>
          {order.refunded_at && (
            <Item label="Refunded">
              <DateTime iso={order.refunded_at} />
              {order.refund_reason && <span className="block text-slate-600">Reason: {order.refund_reason}</span>}
            </Item>
          )}
        </DetailsList>
      </Card>

      <Card labelledBy="items-heading">
        <h2 id="items-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
          Cart items
        </h2>
        <CartItemsTable items={order.cart.items} currency={order.cart.currency} orderNumber={order.order_number} />
      </Card>

      <Card labelledBy="campaigns-heading" padded>
        <h2 id="campaigns-heading" className="mb-3 text-base font-semibold">
          Campaigns
        </h2>
        {order.cart.campaigns.length === 0 ? (
          <p className="text-sm text-slate-600">No campaign was applied to this order.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {order.cart.campaigns.map((campaign) => (
              <li key={campaign.uuid} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  {campaign.name} <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">{campaign.code}</code>
                </span>
                <span className="tabular-nums">−{money(campaign.discount_amount)}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>

      {deliveries && (
        <Card labelledBy="order-deliveries-heading">
          <h2 id="order-deliveries-heading" className="border-b border-slate-200 px-4 py-3 text-base font-semibold">
            Webhook deliveries <span className="font-normal text-slate-600">({deliveries.length.toLocaleString("en-GB")})</span>
          </h2>
          {deliveries.length === 0 ? (
            <p className="px-4 py-6 text-sm text-slate-600">No webhook was sent for this order.</p>
          ) : (
            <DeliveriesTable deliveries={deliveries} />
          )}
        </Card>
      )}

      {!order.is_refunded && can(session.role, "refunds") && (
        <Card labelledBy="refund-heading" padded>
          <h2 id="refund-heading" className="mb-1 text-base font-semibold">
            Refund
          </h2>
          <p className="mb-3 text-sm text-slate-600">Refund the whole order; its tickets go back on sale.</p>
          <RefundForm uuid={order.uuid} orderNumber={order.order_number} total={money(order.total_price)} />
        </Card>
      )}
    </div>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { can } from "@/lib/auth/permissions";
import { orderFilterOptions, ordersExportHref, ordersHref, ordersQueryFromSearchParams, PAGE_SIZES } from "@/lib/dashboard/orders";
import { sortLinks } from "@/lib/dashboard/paging";
import { requireSession } from "@/lib/dashboard/session";
import { searchTransactions } from "@/lib/orders/transactions-search";
import { buttonClasses } from "../_components/button-classes";
import { cardClasses } from "../_components/card";
import { InputFilter, SelectFilter } from "../_components/filter-form";
import { inputClasses } from "../_components/input-classes";
import { ListSection } from "../_components/sections";
import { PageNumbers } from "./page-numbers";
import { OrdersTable, type OrderListRow } from "./orders-table";
import { formatCount } from "@/lib/dashboard/format";

export const metadata: Metadata = { title: "Orders · Ticketing analytics" };

const ORDER_SORTS = { date: "desc", price: "desc", customer_name: "desc" } as const;

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireSession("read");
  const query = ordersQueryFromSearchParams(await searchParams);
  const [{ total_count: total, orders }, options] = await Promise.all([
    searchTransactions(session.organizationId, query),
    orderFilterOptions(session.organizationId),
  ]);
  const eventNames = new Map(options.events.map((event) => [event.publicId, event.name]));
  const rows: OrderListRow[] = orders.map((order) => ({
    uuid: order.uuid,
    orderNumber: order.order_number,
    createdAt: order.created_at,
    customerName: order.customer_name,
    email: order.email,
    eventName: eventNames.get(order.cart.event) ?? order.cart.event,
    total: order.total_price,
    currency: order.cart.currency,
    isRefunded: order.is_refunded,
  }));
  const href = (changes: Record<string, string | number | undefined>) => ordersHref(query, changes);
  // A new sort starts on the first page.
  const sorting = sortLinks({ sort: query.sort, order: query.order }, ORDER_SORTS, (sort, order) =>
    href({ sort: sort === "date" ? undefined : sort, order: order === "desc" ? undefined : order, from: undefined }),
  );
  const filtered = Boolean(
    query.q || query.date_from || query.date_to || query.event_id || query.is_refunded !== undefined || query.order_source || query.payment_method,
  );
  const first = total === 0 ? 0 : Math.min(query.from + 1, total);
  const last = Math.min(query.from + query.size, total);
  const currentPage = Math.floor(query.from / query.size) + 1;
  const pages = Math.max(currentPage, Math.ceil(total / query.size));
  const pageHref = (page: number) => href({ from: (page - 1) * query.size || undefined });
  const publicEventId = options.events.find((event) => event.id === query.event_id)?.publicId ?? "";

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Orders</h1>
        <p className="text-sm text-slate-600">
          Search orders by customer, email, phone or order number; open one to see its cart
          {can(session.role, "refunds") ? " or refund it" : ""}.
        </p>
      </div>

      <form
        method="get"
        action="/orders"
        role="search"
        aria-label="Orders"
        className={`${cardClasses} grid gap-4 p-4 sm:grid-cols-2 sm:p-6 lg:grid-cols-6`}
      >
        <InputFilter
          label="Search"
          id="filter-search"
          name="q"
          type="search"
          value={query.q}
          placeholder="Name, email, phone or order number"
          className="sm:col-span-2"
        />
        <InputFilter label="From date" id="filter-date-from" name="date_from" type="date" value={query.date_from?.text.slice(0, 10)} className="" />
        <InputFilter label="To date" id="filter-date-to" name="date_to" type="date" value={query.date_to?.text.slice(0, 10)} className="" />
        <SelectFilter
          label="Event"
          id="filter-event"
          name="event_id"
          value={publicEventId}
          anyLabel="All events"
          className=""
          options={options.events.map((event) => ({ value: event.publicId, label: event.name }))}
        />
        <SelectFilter
          label="Refunded"
          id="filter-refunded"
          name="is_refunded"
          value={query.is_refunded === undefined ? "" : String(query.is_refunded)}
          anyLabel="All orders"
          className=""
          options={[
            { value: "true", label: "Refunded only" },
            { value: "false", label: "Not refunded" },
          ]}
        />
        <SelectFilter
          label="Channel"
          id="filter-channel"
          name="order_source"
          value={query.order_source ?? ""}
          anyLabel="All channels"
          className=""
          options={options.channels.map((channel) => ({ value: channel, label: channel }))}
        />
        <SelectFilter
          label="Payment method"
          id="filter-payment-method"
          name="payment_method"
          value={query.payment_method ?? ""}
          anyLabel="All methods"
          className=""
          options={options.paymentMethods.map((method) => ({ value: method, label: method }))}
        />
        <label className="block text-sm font-medium text-slate-800">
          Sort by
          <select name="sort" defaultValue={query.sort} className={inputClasses()}>
            <option value="date">Date</option>
            <option value="price">Total</option>
            <option value="customer_name">Customer name</option>
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-800">
          Order
          <select name="order" defaultValue={query.order} className={inputClasses()}>
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-800">
          Per page
          <select name="size" defaultValue={String(query.size)} className={inputClasses()}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-3">
          <button type="submit" className={buttonClasses.primary}>
            Search
          </button>
          {filtered && (
            <Link href="/orders" className={buttonClasses.secondary}>
              Clear filters
            </Link>
          )}
        </div>
      </form>
      <p className="text-xs text-slate-600">Dates are UTC calendar days.</p>

      <ListSection
        id="orders-heading"
        title="Results"
        count={total === 0 ? "No orders" : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`}
        countTestId="orders-count"
        countLive
        actions={
          // A plain link: the browser downloads the streamed file itself, starting with the first rows.
          <a href={ordersExportHref(query)} download className={buttonClasses.secondary}>
            Export CSV
          </a>
        }
        emptyText={
          filtered
            ? "No orders match this search. Try other words or a wider date range."
            : total > 0
              ? "This page is past the last order."
              : "No orders yet. Orders created through the API show up here."
        }
        rowCount={rows.length}
        nav={<PageNumbers current={currentPage} pages={pages} href={pageHref} />}
      >
        <OrdersTable orders={rows} sortLinks={sorting} />
      </ListSection>
    </div>
  );
}

-- order_counter_slot(inserting): the slot of the trigger-kept order counters (organization_order_counts,
-- order_daily_counts, order_daily_facet_counts, order_daily_sales) that this connection writes. Every counter
-- key has up to 64 rows that readers sum, so concurrent order transactions of one organization and day add to
-- different rows instead of queueing on one until commit: 32 slots by backend pid for new orders, 32 more for
-- refunds, deletes and other changes. The two bands are apart because order creation writes its counters
-- before it locks its ticket types while a refund locks its ticket types first: sharing no counter row, the
-- two can never wait for each other in a cycle.
CREATE OR REPLACE FUNCTION order_counter_slot(inserting boolean) RETURNS smallint LANGUAGE sql STABLE AS $$
  SELECT ((CASE WHEN inserting THEN 0 ELSE 32 END) + pg_backend_pid() % 32)::smallint
$$;

-- order_customer_name_slot(inserting): the slot of order_customer_names' counts that this connection writes, as
-- order_counter_slot but 4 in each band: a search sums every slot row of each name that its fragment matches (910
-- names for `berg` at 1,000,000 orders), while two concurrent orders rarely share a name.
CREATE OR REPLACE FUNCTION order_customer_name_slot(inserting boolean) RETURNS smallint LANGUAGE sql STABLE AS $$
  SELECT ((CASE WHEN inserting THEN 0 ELSE 4 END) + pg_backend_pid() % 4)::smallint
$$;

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

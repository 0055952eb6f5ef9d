-- next_order_number(org): the organization's next order number, from its sequence (see
-- organization-order-number-sequence-create.sql). Used by order creation and by every bulk writer of orders.
CREATE OR REPLACE FUNCTION next_order_number(org uuid) RETURNS integer LANGUAGE sql VOLATILE AS $$
  SELECT nextval(('order_numbers_' || replace(org::text, '-', ''))::regclass)::integer
$$;

-- place_order(...): the writes of a completed order (POST /v1/orders, lib/orders/create-order.ts) in one
-- statement, so the order transaction is one round trip after its checks instead of three: the order (its
-- number from the organization's sequence, its currency the organization's), its items (`lines`: a JSON array
-- of {id, ticket_type_id, name, category, quantity, unit_price, vat_percent}, ids chosen by the caller), its
-- campaign when `campaign` is given, then the tickets taken from stock, last, so a stock row is held only for
-- that and the commit (take_tickets). Returns the order's stored values, the integrations subscribed to
-- OrderCompleted (for the caller's outbox rows) and the ticket type that is sold out, if one is: the caller
-- then rolls everything back.
CREATE OR REPLACE FUNCTION place_order(
  org uuid, event uuid, event_title text,
  email text, full_name text, phone text, method text, method_brand text, source text,
  original integer, total integer, lines jsonb,
  campaign uuid, campaign_title text, campaign_code_used text, discount integer
) RETURNS TABLE (
  placed_id uuid, placed_number integer, placed_currency text, placed_at timestamptz, integration_ids uuid[], sold_out uuid
) LANGUAGE plpgsql SET plan_cache_mode = auto AS $$
DECLARE
  ticket_type_ids uuid[];
  quantities integer[];
BEGIN
  INSERT INTO orders AS o (organization_id, event_id, order_number, status, customer_email, customer_name, customer_phone,
    payment_method, payment_method_brand, order_source, currency, original_price, total_price)
  VALUES (org, event, next_order_number(org), 'completed', email, full_name, phone, method, method_brand, source,
    (SELECT g.currency FROM organizations g WHERE g.id = org), original, total)
  RETURNING o.id, o.order_number, o.currency, o.created_at INTO placed_id, placed_number, placed_currency, placed_at;

  INSERT INTO order_items (id, order_id, ticket_type_id, name, category, quantity, unit_price, vat_percent, event_id, event_name)
  SELECT l.id, placed_id, l.ticket_type_id, l.name, l.category, l.quantity, l.unit_price, l.vat_percent, event, event_title
  FROM jsonb_to_recordset(lines) AS l(id uuid, ticket_type_id uuid, name text, category text, quantity integer,
    unit_price integer, vat_percent double precision);

  IF campaign IS NOT NULL THEN
    INSERT INTO order_campaigns (order_id, campaign_id, name, code, discount_amount)
    VALUES (placed_id, campaign, campaign_title, campaign_code_used, discount);
  END IF;

  integration_ids := subscribed_integrations(org, 'OrderCompleted');
  SELECT array_agg(l.ticket_type_id), array_agg(l.quantity) INTO ticket_type_ids, quantities
  FROM jsonb_to_recordset(lines) AS l(ticket_type_id uuid, quantity integer);
  sold_out := take_tickets(ticket_type_ids, quantities);
  RETURN NEXT;
END $$;

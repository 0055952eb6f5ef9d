-- place_order(...): a completed order (POST /v1/orders, lib/orders/create-order.ts) in one statement, after the
-- caller's checks, which read the event and ticket types without locking them: the event held FOR SHARE until commit
-- and checked again (a cancel or delete committed since the checks refuses the order; one that comes later waits for
-- it and then refunds it), the order (its number from the organization's sequence, its currency the organization's),
-- its items (`lines`: a JSON array of {id, ticket_type_id, name, category, quantity, unit_price, vat_percent}, ids
-- chosen by the caller), its campaign when `campaign` is given, then the tickets taken from stock, last, so a stock
-- row is held only for that and the commit (take_tickets). Returns the order's stored values and the integrations
-- subscribed to OrderCompleted, whose outbox rows the caller writes in the same transaction: `outbox_follows` says
-- it will. Without it (an organization the caller found without such integrations) the call is the whole
-- transaction, no BEGIN and COMMIT around it, so one that finds integrations meanwhile is refused.
-- Refusals are errors, so that everything written is rolled back, even with no transaction around the call:
-- SQLSTATE TK001 when a ticket type is sold out (DETAIL: its id; the order number stays a gap), TK002 when the event
-- is no longer published (DETAIL: its status, or `deleted`), TK003 when integrations are subscribed and the outbox
-- does not follow.
-- plan_cache_mode = auto: the sessions that call it may plan every statement for its values (force_custom_plan);
-- its statements and the triggers they fire look rows up by key, so they keep their plans once warm.
CREATE OR REPLACE FUNCTION place_order(
  org uuid, event uuid, event_title text,
  email text, full_name text, phone text, method text, method_brand text, source text,
  original integer, total integer, lines jsonb,
  campaign uuid, campaign_title text, campaign_code_used text, discount integer, outbox_follows boolean
) RETURNS TABLE (
  placed_id uuid, placed_number integer, placed_currency text, placed_at timestamptz, integration_ids uuid[]
) LANGUAGE plpgsql SET plan_cache_mode = auto AS $$
DECLARE
  event_status text;
  ticket_type_ids uuid[];
  quantities integer[];
  sold_out uuid;
BEGIN
  SELECT e.status INTO event_status FROM events e
  WHERE e.id = event AND e.organization_id = org AND e.deleted_at IS NULL FOR SHARE;
  IF event_status IS DISTINCT FROM 'published' THEN
    RAISE EXCEPTION 'event % is %', event, coalesce(event_status, 'deleted')
      USING ERRCODE = 'TK002', DETAIL = coalesce(event_status, 'deleted');
  END IF;
  integration_ids := subscribed_integrations(org, 'OrderCompleted');
  IF cardinality(integration_ids) > 0 AND NOT outbox_follows THEN
    RAISE EXCEPTION 'organization % has integrations subscribed to OrderCompleted', org USING ERRCODE = 'TK003';
  END IF;

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

  SELECT array_agg(l.ticket_type_id), array_agg(l.quantity) INTO ticket_type_ids, quantities
  FROM jsonb_to_recordset(lines) AS l(ticket_type_id uuid, quantity integer);
  sold_out := take_tickets(ticket_type_ids, quantities);
  IF sold_out IS NOT NULL THEN
    RAISE EXCEPTION 'ticket type % is sold out', sold_out USING ERRCODE = 'TK001', DETAIL = sold_out::text;
  END IF;
  RETURN NEXT;
END $$;

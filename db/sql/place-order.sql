-- place_order(...): a completed order (POST /v1/orders, lib/orders/create-order.ts) in one statement and one
-- transaction of its own (no BEGIN and COMMIT around it), after the caller's checks, which read the event and ticket
-- types without locking them: the event held FOR SHARE until commit and checked again (a cancel or delete committed
-- since the checks refuses the order; one that comes later waits for it and then refunds it), the order (its number
-- from the organization's sequence, its currency the organization's), its items (`lines`: a JSON array of {id,
-- ticket_type_id, name, category, quantity, unit_price, vat_percent}, ids chosen by the caller), its campaign when
-- `campaign` is given, an OrderCompleted outbox row per integration subscribed to it, then the tickets taken from
-- stock, last, so a stock row is held only for that and the commit (take_tickets).
-- The outbox rows' payload is the caller's `payload_template`: the order's JSON with the four values only this
-- statement knows left as format() slots (%1$s id, %2$s number, %3$s created_at, %4$s currency; every other `%`
-- doubled), so the payload is built once, by the code that builds every other payload (lib/orders/place-order.ts).
-- A NULL template says the caller found no integration subscribed; one subscribed since then refuses the order.
-- Returns the order's stored values and its outbox rows (`delivery_ids`, each for the integration at the same place
-- in `integration_ids`; their updated_at is `placed_at`), for the caller to announce after commit.
-- Refusals are errors, so that everything written is rolled back: SQLSTATE TK001 when a ticket type is sold out
-- (DETAIL: its id; the order number stays a gap), TK002 when the event is no longer published (DETAIL: its status, or
-- `deleted`), TK003 when integrations are subscribed and no payload came.
-- plan_cache_mode = auto: the sessions that call it may plan every statement for its values (force_custom_plan);
-- its statements and the triggers they fire look rows up by key, so they keep their plans once warm.
CREATE OR REPLACE FUNCTION place_order(
  org uuid, event uuid, event_title text,
  email text, full_name text, phone text, method text, method_brand text, source text,
  original integer, total integer, lines jsonb,
  campaign uuid, campaign_title text, campaign_code_used text, discount integer, payload_template text
) RETURNS TABLE (
  placed_id uuid, placed_number integer, placed_currency text, placed_at timestamptz, integration_ids uuid[],
  delivery_ids uuid[]
) LANGUAGE plpgsql SET plan_cache_mode = auto AS $$
DECLARE
  event_status text;
  ticket_type_ids uuid[];
  quantities integer[];
  sold_out uuid;
  payload text;
BEGIN
  SELECT e.status INTO event_status FROM events e
  WHERE e.id = event AND e.organization_id = org AND e.deleted_at IS NULL FOR SHARE;
  IF event_status IS DISTINCT FROM 'published' THEN
    RAISE EXCEPTION 'event % is %', event, coalesce(event_status, 'deleted')
      USING ERRCODE = 'TK002', DETAIL = coalesce(event_status, 'deleted');
  END IF;
  integration_ids := subscribed_integrations(org, 'OrderCompleted');
  IF cardinality(integration_ids) > 0 AND payload_template IS NULL THEN
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

  delivery_ids := '{}';
  IF cardinality(integration_ids) > 0 THEN
    payload := format(payload_template, placed_id, placed_number,
      to_char(placed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), placed_currency);
    WITH written AS (
      INSERT INTO webhook_deliveries AS d (organization_id, integration_id, event_type, order_id, payload)
      SELECT org, i.id, 'OrderCompleted', placed_id, payload FROM unnest(integration_ids) AS i(id)
      RETURNING d.id, d.integration_id
    ) SELECT array_agg(w.id), array_agg(w.integration_id) INTO delivery_ids, integration_ids FROM written w;
  END IF;

  SELECT array_agg(l.ticket_type_id), array_agg(l.quantity) INTO ticket_type_ids, quantities
  FROM jsonb_to_recordset(lines) AS l(ticket_type_id uuid, quantity integer);
  sold_out := take_tickets(ticket_type_ids, quantities);
  IF sold_out IS NOT NULL THEN
    RAISE EXCEPTION 'ticket type % is sold out', sold_out USING ERRCODE = 'TK001', DETAIL = sold_out::text;
  END IF;
  RETURN NEXT;
END $$;

-- Stock buckets (db/sql/take-tickets.sql): the unsold tickets move from ticket_types.quantity_sold into
-- ticket_type_stock, and quantity_sold becomes derived (db/sql/ticket-type-quantity-sold.sql).
CREATE TABLE "ticket_type_stock" (
	"ticket_type_id" uuid NOT NULL,
	"bucket" smallint NOT NULL,
	"available" integer NOT NULL,
	CONSTRAINT "ticket_type_stock_ticket_type_id_bucket_pk" PRIMARY KEY("ticket_type_id","bucket"),
	CONSTRAINT "ticket_type_stock_available_check" CHECK ("ticket_type_stock"."available" >= 0)
);
--> statement-breakpoint
ALTER TABLE "ticket_type_stock" ADD CONSTRAINT "ticket_type_stock_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- ticket_stock_buckets(): how many ticket_type_stock rows hold a ticket type's unsold tickets. Buyers take from
-- the row of their connection (take-tickets.sql), so up to this many orders for one ticket type can be between
-- their reservation and their commit at once instead of one; 16 covers the app's connection pool and more.
CREATE OR REPLACE FUNCTION ticket_stock_buckets() RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT 16
$$;
--> statement-breakpoint
-- ticket_type_stock_spread(tt, amount): sets the ticket type's unsold tickets to `amount`, spread evenly over
-- its buckets (creating them if need be). Callers that re-spread existing stock hold every bucket's row first.
-- A negative amount (more sold than there are tickets) is refused.
CREATE OR REPLACE FUNCTION ticket_type_stock_spread(tt uuid, amount integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF amount < 0 THEN
    RAISE EXCEPTION 'ticket type % would have % tickets left', tt, amount USING ERRCODE = 'check_violation';
  END IF;
  INSERT INTO ticket_type_stock AS s (ticket_type_id, bucket, available)
  SELECT tt, b, amount / ticket_stock_buckets() + (b < amount % ticket_stock_buckets())::integer
  FROM generate_series(0, ticket_stock_buckets() - 1) b
  ON CONFLICT (ticket_type_id, bucket) DO UPDATE SET available = excluded.available;
END $$;
--> statement-breakpoint
SELECT ticket_type_stock_spread(id, quantity_total - quantity_sold) FROM ticket_types;
--> statement-breakpoint
ALTER TABLE "ticket_types" DROP CONSTRAINT "ticket_types_quantity_check";
--> statement-breakpoint
ALTER TABLE "ticket_types" DROP COLUMN "quantity_sold";
--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_quantity_check" CHECK ("ticket_types"."quantity_total" >= 0);
--> statement-breakpoint
-- quantity_sold(ticket_types): tickets sold, derived (quantity_total less the unsold tickets in
-- ticket_type_stock) rather than stored on the ticket type, whose row would otherwise be one every order of an
-- on-sale writes and waits for. Also readable as a column: `t.quantity_sold` for a ticket_types row t.
CREATE OR REPLACE FUNCTION quantity_sold(ticket_types) RETURNS integer LANGUAGE sql STABLE AS $$
  SELECT $1.quantity_total - coalesce((SELECT sum(available) FROM ticket_type_stock WHERE ticket_type_id = $1.id), 0)::integer
$$;
--> statement-breakpoint
-- take_tickets(ticket_type_ids, quantities): takes the tickets of an order from ticket_type_stock, ticket types
-- in id order (so concurrent orders cannot deadlock), and returns the first ticket type without enough left
-- (the caller rolls back), or NULL once all are taken.
-- Fast path: one conditional UPDATE of this connection's bucket, the only row held until commit, so up to
-- ticket_stock_buckets() buyers of one ticket type commit side by side. When that bucket has too few, every
-- bucket of the type is locked in bucket order, the exact total decides, and what is left is re-spread evenly,
-- so buckets run dry together and the last ticket is sold exactly once.
-- The fast path runs in a subtransaction that a short bucket rolls back: an UPDATE that waited for the bucket
-- and then found too few keeps the row locked otherwise (PostgreSQL locks the newest version before it
-- re-checks the condition), and holding one bucket while locking the others in order deadlocks with another
-- order doing the same.
CREATE OR REPLACE FUNCTION take_tickets(ticket_type_ids uuid[], quantities integer[]) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  line record;
  unsold integer;
BEGIN
  FOR line IN
    SELECT t.id, sum(t.quantity)::integer AS quantity FROM unnest(ticket_type_ids, quantities) AS t(id, quantity)
    GROUP BY t.id ORDER BY t.id
  LOOP
    BEGIN
      UPDATE ticket_type_stock SET available = available - line.quantity
      WHERE ticket_type_id = line.id AND bucket = pg_backend_pid() % ticket_stock_buckets() AND available >= line.quantity;
      IF FOUND THEN
        CONTINUE;
      END IF;
      RAISE EXCEPTION USING ERRCODE = 'no_data_found';
    EXCEPTION WHEN no_data_found THEN
      NULL;
    END;
    SELECT coalesce(sum(s.available), 0) INTO unsold
    FROM (SELECT available FROM ticket_type_stock WHERE ticket_type_id = line.id ORDER BY bucket FOR UPDATE) s;
    IF unsold < line.quantity THEN
      RETURN line.id;
    END IF;
    PERFORM ticket_type_stock_spread(line.id, unsold - line.quantity);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- release_tickets(ticket_type_ids, quantities): gives tickets back to ticket_type_stock (refunds) into this
-- connection's bucket, one ticket type at a time in id order, the order take_tickets locks them in.
CREATE OR REPLACE FUNCTION release_tickets(ticket_type_ids uuid[], quantities integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  line record;
BEGIN
  FOR line IN
    SELECT t.id, sum(t.quantity)::integer AS quantity FROM unnest(ticket_type_ids, quantities) AS t(id, quantity)
    GROUP BY t.id ORDER BY t.id
  LOOP
    UPDATE ticket_type_stock SET available = available + line.quantity
    WHERE ticket_type_id = line.id AND bucket = pg_backend_pid() % ticket_stock_buckets();
  END LOOP;
END $$;
--> statement-breakpoint
-- ticket_type_stock follows ticket_types: a new ticket type's quantity_total is all unsold, spread over its
-- buckets (ticket-type-stock-spread.sql), whoever inserts it (API, demo data, tests, bulk seeds).
CREATE OR REPLACE FUNCTION ticket_type_stock_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_type_stock_spread(NEW.id, NEW.quantity_total);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER ticket_type_stock_create AFTER INSERT ON ticket_types
  FOR EACH ROW EXECUTE FUNCTION ticket_type_stock_created();
--> statement-breakpoint
-- ticket_type_stock follows ticket_types: a capacity change adds (or takes) the difference to the unsold
-- tickets, re-spread over the buckets, with every bucket locked in order (as take_tickets' slow path does) so
-- that no concurrent order takes a ticket meanwhile. Below the tickets already sold it fails (check_violation).
CREATE OR REPLACE FUNCTION ticket_type_stock_resized() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unsold integer;
BEGIN
  SELECT coalesce(sum(s.available), 0) INTO unsold
  FROM (SELECT available FROM ticket_type_stock WHERE ticket_type_id = NEW.id ORDER BY bucket FOR UPDATE) s;
  PERFORM ticket_type_stock_spread(NEW.id, unsold + NEW.quantity_total - OLD.quantity_total);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER ticket_type_stock_resize AFTER UPDATE OF quantity_total ON ticket_types
  FOR EACH ROW WHEN (OLD.quantity_total IS DISTINCT FROM NEW.quantity_total)
  EXECUTE FUNCTION ticket_type_stock_resized();

-- ticket_stock_buckets(): how many ticket_type_stock rows hold a ticket type's unsold tickets. Buyers take from
-- the row of their connection (take-tickets.sql), so up to this many orders for one ticket type can be between
-- their reservation and their commit at once instead of one; 16 covers the app's connection pool and more.
CREATE OR REPLACE FUNCTION ticket_stock_buckets() RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT 16
$$;

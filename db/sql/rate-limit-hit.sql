-- rate_limit_hit(subject, limit): one call per API request; counts the subject's hits (an API key's id, or a
-- dashboard user's id on the user-token and session endpoints) in the rolling minute and records this one if
-- allowed. Called by lib/http/rate-limit.ts.
-- A plpgsql function because each statement inside it takes a fresh snapshot after the advisory lock,
-- so concurrent callers on any connection or app instance see each other's hits (exact, shared limit).
-- Buckets are whole seconds; the window counts 61 of them, so it may refuse slightly early, never late.
-- Rate-limit hits are counters, not records: waiting for the WAL flush on every API request costs more
-- than the few hits a crash could forget, so synchronous_commit is off, local to the hit's transaction.
-- last_used_at of the key is updated here so tracking key usage costs no extra round trip; once a minute
-- is precise enough (a user's id matches no key, so the update is then a no-op). reset_at is the moment the count next drops below the limit: the end of the earliest
-- bucket whose expiry does it.
CREATE OR REPLACE FUNCTION rate_limit_hit(p_key uuid, p_limit integer)
RETURNS TABLE (allowed boolean, remaining integer, reset_at bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_bucket bigint := floor(extract(epoch from clock_timestamp()))::bigint;
  v_oldest bigint := v_bucket - 60;
  v_used integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(hashtextextended(p_key::text, 7270));
  DELETE FROM rate_limit_buckets WHERE subject_id = p_key AND bucket < v_oldest;
  SELECT coalesce(sum(hits), 0)::integer INTO v_used FROM rate_limit_buckets WHERE subject_id = p_key;
  IF v_used < p_limit THEN
    INSERT INTO rate_limit_buckets (subject_id, bucket, hits) VALUES (p_key, v_bucket, 1)
      ON CONFLICT (subject_id, bucket) DO UPDATE SET hits = rate_limit_buckets.hits + 1;
    allowed := true;
    v_used := v_used + 1;
  ELSE
    allowed := false;
  END IF;
  UPDATE api_keys SET last_used_at = clock_timestamp()
   WHERE id = p_key AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute');
  remaining := greatest(p_limit - v_used, 0);
  SELECT s.bucket + 61 INTO reset_at
    FROM (SELECT b.bucket, sum(b.hits) OVER (ORDER BY b.bucket) AS cum
            FROM rate_limit_buckets b WHERE b.subject_id = p_key) s
   WHERE v_used - s.cum < p_limit
   ORDER BY s.bucket LIMIT 1;
  reset_at := coalesce(reset_at, v_bucket + 61);
  RETURN NEXT;
END
$$;

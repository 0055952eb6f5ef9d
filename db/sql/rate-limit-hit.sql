-- rate_limit_hit(subject, limit): one call per API request; counts the subject's hits (an API key's id, or a
-- dashboard user's id on the user-token and session endpoints) in the rolling minute and records this one if
-- allowed. Called by lib/http/rate-limit.ts.
-- Exact across connections and app instances: the hit is one INSERT .. ON CONFLICT DO UPDATE of the subject's
-- rate_limit_counters row, whose update is computed from the latest committed row once its lock is held, so
-- concurrent hits of one subject are counted one at a time; the row lock lasts only until this statement's
-- commit (the call runs alone in its transaction), which is all a subject's hits wait for.
-- Buckets are whole seconds; the window counts 61 of them, so it may refuse slightly early, never late. A hit
-- whose clock reading is older than the row's newest second counts in that second (later expiry, never earlier).
-- Rate-limit hits are counters, not records: waiting for the WAL flush on every API request costs more
-- than the few hits a crash could forget, so synchronous_commit is off, local to the hit's transaction.
-- last_used_at of the key is updated here, before the counter row is locked, so tracking key usage costs no extra
-- round trip; once a minute is precise enough (a user's id matches no key, so the update is then a no-op).
-- reset_at is the moment the count next drops below the limit: the end of the earliest bucket whose expiry does it.
CREATE OR REPLACE FUNCTION rate_limit_hit(p_key uuid, p_limit integer)
RETURNS TABLE (allowed boolean, remaining integer, reset_at bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_bucket bigint := floor(extract(epoch from clock_timestamp()))::bigint;
  v_newest bigint;
  v_hits integer[];
  v_used integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE api_keys SET last_used_at = clock_timestamp()
   WHERE id = p_key AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute');
  INSERT INTO rate_limit_counters AS c (subject_id, bucket, hits, allowed)
    VALUES (p_key, v_bucket, array_prepend(1, array_fill(0, ARRAY[60])), true)
  ON CONFLICT (subject_id) DO UPDATE SET (bucket, hits, allowed) = (
    SELECT w.newest,
           CASE WHEN w.used < p_limit THEN array_prepend(w.hits[1] + 1, w.hits[2:61]) ELSE w.hits END,
           w.used < p_limit
      FROM (SELECT r.newest, r.hits, (SELECT coalesce(sum(x), 0)::integer FROM unnest(r.hits) x) AS used
              FROM (SELECT greatest(c.bucket, v_bucket) AS newest,
                           CASE WHEN v_bucket - c.bucket >= 61 THEN array_fill(0, ARRAY[61])
                                WHEN v_bucket <= c.bucket THEN c.hits
                                ELSE array_fill(0, ARRAY[(v_bucket - c.bucket)::integer])
                                     || c.hits[1:61 - (v_bucket - c.bucket)::integer] END AS hits) r) w)
  RETURNING c.bucket, c.hits, c.allowed INTO v_newest, v_hits, allowed;
  SELECT coalesce(sum(x), 0)::integer INTO v_used FROM unnest(v_hits) x;
  remaining := greatest(p_limit - v_used, 0);
  SELECT v_newest - s.k + 62 INTO reset_at
    FROM (SELECT u.k, sum(u.x) OVER (ORDER BY u.k DESC) AS cum
            FROM unnest(v_hits) WITH ORDINALITY u(x, k) WHERE u.x > 0) s
   WHERE v_used - s.cum < p_limit
   ORDER BY s.k DESC LIMIT 1;
  reset_at := coalesce(reset_at, v_bucket + 61);
  RETURN NEXT;
END
$$;

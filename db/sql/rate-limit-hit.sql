-- rate_limit_hit(subject, limit): one call per API request; counts the subject's hits (an API key's id, or a
-- dashboard user's id on the user-token and session endpoints) in the rolling minute and records this one if
-- allowed. Called by lib/http/rate-limit.ts.
-- Exact across connections and app instances: the subject's hits are serialised by the row lock on its lock row
-- (slot -1), which the first statement takes (an upsert whose update never applies but whose lock is kept) and
-- holds until this statement's commit (the call runs alone in its transaction); each statement after it takes a
-- fresh snapshot (plpgsql, read committed), so it sees every earlier holder's hit. The clock is read once the
-- lock is held, so hits are counted in the order they were admitted.
-- A lock that is not a whole-minute row lets the counters be small rows (the subject's ring of per-second slots):
-- the row versions that the waiting callers' snapshots keep from pruning then fit in the page many times over,
-- and every hit stays a HOT update there (a whole-minute row spilled to new pages: bloat). Locking the lock row
-- writes no row version. A row lock rather than an advisory one: a caller that finds it free takes it at once,
-- where an advisory lock is handed to the next queued caller, which must first be scheduled (slower under load).
-- Buckets are whole seconds; the window counts 61 of them, so it may refuse slightly early, never late. If
-- the clock reads a second older than the subject's newest, the hit counts in that newest second (later
-- expiry, never earlier), and the window still starts from the clock's reading (more counted, never fewer).
-- Rate-limit hits are counters, not records: waiting for the WAL flush on every API request costs more
-- than the few hits a crash could forget, so synchronous_commit is off, local to the hit's transaction.
-- last_used_at of the key is updated here, before the lock is taken, so tracking key usage costs no extra
-- round trip; once a minute is precise enough (a user's id matches no key, so the update is then a no-op).
-- The count and this hit's write are one statement, the lock's holder's only work besides the commit.
-- reset_at is the moment the count next drops below the limit: the end of the earliest bucket whose expiry
-- does it. Below the limit that is the oldest bucket, which the count's own pass gives; only a subject at its
-- limit pays for the running sums over the window that find it.
CREATE OR REPLACE FUNCTION rate_limit_hit(p_key uuid, p_limit integer)
RETURNS TABLE (allowed boolean, remaining integer, reset_at bigint)
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = auto AS $$
DECLARE
  v_clock bigint;
  v_bucket bigint;
  v_oldest bigint;
  v_used integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE api_keys SET last_used_at = clock_timestamp()
   WHERE id = p_key AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute');
  INSERT INTO rate_limit_counters AS c (subject_id, slot, bucket, hits) VALUES (p_key, -1, 0, 0)
  ON CONFLICT (subject_id, slot) DO UPDATE SET hits = 0 WHERE false;
  v_clock := floor(extract(epoch from clock_timestamp()))::bigint;
  WITH w AS (SELECT coalesce(sum(c.hits), 0)::integer AS used, greatest(v_clock, max(c.bucket)) AS newest,
                    min(c.bucket) AS oldest
               FROM rate_limit_counters c WHERE c.subject_id = p_key AND c.bucket > v_clock - 61),
       hit AS (INSERT INTO rate_limit_counters AS c (subject_id, slot, bucket, hits)
                 SELECT p_key, (w.newest % 61)::smallint, w.newest, 1 FROM w WHERE w.used < p_limit
               ON CONFLICT (subject_id, slot) DO UPDATE
                 SET (bucket, hits) = (excluded.bucket, CASE WHEN c.bucket = excluded.bucket THEN c.hits + 1 ELSE 1 END)
               RETURNING 1)
  SELECT w.used < p_limit, w.used + (SELECT count(*) FROM hit)::integer, w.newest, w.oldest
    INTO allowed, v_used, v_bucket, v_oldest FROM w;
  remaining := greatest(p_limit - v_used, 0);
  IF v_used >= p_limit THEN
    SELECT w.bucket INTO v_oldest
      FROM (SELECT c.bucket, sum(c.hits) OVER (ORDER BY c.bucket) AS cum
              FROM rate_limit_counters c WHERE c.subject_id = p_key AND c.bucket > v_clock - 61) w
     WHERE v_used - w.cum < p_limit
     ORDER BY w.bucket LIMIT 1;
  END IF;
  reset_at := coalesce(v_oldest, v_bucket) + 61;
  RETURN NEXT;
END
$$;

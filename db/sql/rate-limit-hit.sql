-- rate_limit_hit(subject, limit): one call per API request; counts the subject's hits (an API key's id, or a
-- dashboard user's id on the user-token and session endpoints) in the rolling minute and records this one if
-- allowed. Called by lib/http/rate-limit.ts.
-- Exact across connections and app instances. Below the limit a hit takes no lock (the fast path): the subject's
-- newest slot must be this second's, and the count, plus max_connections for the hits other sessions may be
-- taking meanwhile, below the limit; then the hit's nextval gives its place among all hits, and it is admitted if
-- the count up to that place is below the limit and the clock still reads the same second. So every admitted hit
-- is counted in the second it was admitted in: the next second's slot is written only once that second has begun,
-- and holds the sequence's value then. Otherwise the hit takes the locked path, and the fast path's nextval, if it
-- took one, counts as a hit that was refused (early, never late). Hits on the locked path are serialised by the
-- row lock on the subject's lock row (slot -1), which its first statement takes (an upsert whose update never
-- applies but whose lock is kept) and holds until this statement's commit (the call runs alone in its
-- transaction); each statement after it takes a fresh snapshot (plpgsql, read committed), so it sees every
-- earlier hit. The clock is read once the lock is held, so hits are counted in the order they were admitted.
-- Locking the lock row writes no row version, but takes a transaction id and its commit. A row lock rather than
-- an advisory one: a caller that finds it free takes it at once, where an advisory lock is handed to the next
-- queued caller, which must first be scheduled (slower under load). The fast path reads the sequence in a block
-- of its own: a key revoked or deleted meanwhile drops it, and the hit then takes the locked path, which waits
-- for the drop's commit and answers as it always has.
-- A hit writes no row: it is a nextval of the subject's own UNLOGGED sequence (rate_limit_sequence), which counts
-- every hit ever admitted and is updated in place, outside MVCC, without WAL. Only the first hit of each second
-- writes a row, the subject's slot (bucket mod 61) for that second, holding the sequence's value before it
-- (hits_before): the hits of a second are the next slot's hits_before (or the sequence's value) minus its own, and
-- the hits in the window are the sequence's value minus the oldest slot's hits_before in it. So a statement that
-- holds an old snapshot meanwhile (an export, an ANALYZE) keeps at most one row version per second from pruning,
-- where a row rewritten per hit spilled thousands to new pages (bloat). The sequence is created by the subject's
-- first hit, under its lock row, and dropped when the key is revoked or deleted, or the user deleted
-- (rate_limit_subject_dropped).
-- Buckets are whole seconds; the window counts 61 of them, so it may refuse slightly early, never late. If
-- the clock reads a second older than the subject's newest, the hit counts in that newest second (later
-- expiry, never earlier), and the window still starts from the clock's reading (more counted, never fewer).
-- A nextval is not undone by a rollback: a hit whose transaction fails still counts (early, never late).
-- Rate-limit hits are counters, not records: waiting for the WAL flush on every API request costs more
-- than the few hits a crash could forget, so synchronous_commit is off, local to the hit's transaction.
-- last_used_at of the key is updated here, before the lock is taken, so tracking key usage costs no extra
-- round trip; once a minute is precise enough (a user's id matches no key, so the update is then a no-op).
-- reset_at is the moment the count next drops below the limit: the end of the earliest bucket whose expiry
-- does it. Below the limit that is the oldest bucket, which the count's own pass gives; only a subject at its
-- limit pays for the running sums over the window that find it.
CREATE OR REPLACE FUNCTION rate_limit_hit(p_key uuid, p_limit integer)
RETURNS TABLE (allowed boolean, remaining integer, reset_at bigint)
LANGUAGE plpgsql VOLATILE SET plan_cache_mode = auto AS $$
DECLARE
  v_sequence regclass;
  v_clock bigint;
  v_total bigint;
  v_newest bigint;
  v_newest_has_slot boolean;
  v_oldest bigint;
  v_used integer;
  v_base bigint;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE api_keys SET last_used_at = clock_timestamp()
   WHERE id = p_key AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute');
  v_sequence := to_regclass(rate_limit_sequence(p_key));
  IF v_sequence IS NOT NULL THEN
    v_clock := floor(extract(epoch from clock_timestamp()))::bigint;
    SELECT max(c.bucket), min(c.hits_before), min(c.bucket) INTO v_newest, v_base, v_oldest
      FROM rate_limit_counters c WHERE c.subject_id = p_key AND c.bucket > v_clock - 61;
    IF v_newest = v_clock THEN
      BEGIN
        IF pg_sequence_last_value(v_sequence) - v_base + current_setting('max_connections')::integer < p_limit THEN
          v_used := (nextval(v_sequence) - v_base)::integer;
          IF v_used < p_limit AND floor(extract(epoch from clock_timestamp()))::bigint = v_clock THEN
            allowed := true;
            remaining := p_limit - v_used;
            reset_at := v_oldest + 61;
            RETURN NEXT;
            RETURN;
          END IF;
        END IF;
      EXCEPTION WHEN undefined_table OR internal_error THEN
        NULL;
      END;
    END IF;
  END IF;
  INSERT INTO rate_limit_counters AS c (subject_id, slot, bucket, hits_before) VALUES (p_key, -1, 0, 0)
  ON CONFLICT (subject_id, slot) DO UPDATE SET hits_before = 0 WHERE false;
  v_sequence := to_regclass(rate_limit_sequence(p_key));
  IF v_sequence IS NULL THEN
    EXECUTE format('CREATE UNLOGGED SEQUENCE %I', rate_limit_sequence(p_key));
    v_sequence := to_regclass(rate_limit_sequence(p_key));
  END IF;
  v_clock := floor(extract(epoch from clock_timestamp()))::bigint;
  v_total := coalesce(pg_sequence_last_value(v_sequence), 0);
  SELECT greatest(v_clock, max(c.bucket)), coalesce(max(c.bucket) >= v_clock, false),
         (v_total - coalesce(min(c.hits_before), v_total))::integer, min(c.bucket)
    INTO v_newest, v_newest_has_slot, v_used, v_oldest
    FROM rate_limit_counters c WHERE c.subject_id = p_key AND c.bucket > v_clock - 61;
  allowed := v_used < p_limit;
  IF allowed THEN
    PERFORM nextval(v_sequence);
    IF NOT v_newest_has_slot THEN
      INSERT INTO rate_limit_counters AS c (subject_id, slot, bucket, hits_before)
      VALUES (p_key, (v_newest % 61)::smallint, v_newest, v_total)
      ON CONFLICT (subject_id, slot) DO UPDATE SET (bucket, hits_before) = (excluded.bucket, excluded.hits_before);
    END IF;
    v_used := v_used + 1;
    v_total := v_total + 1;
  END IF;
  remaining := greatest(p_limit - v_used, 0);
  IF v_used >= p_limit THEN
    SELECT w.bucket INTO v_oldest
      FROM (SELECT c.bucket, lead(c.hits_before, 1, v_total) OVER (ORDER BY c.bucket) - min(c.hits_before) OVER () AS cum
              FROM rate_limit_counters c WHERE c.subject_id = p_key AND c.bucket > v_clock - 61) w
     WHERE v_used - w.cum < p_limit
     ORDER BY w.bucket LIMIT 1;
  END IF;
  reset_at := coalesce(v_oldest, v_newest) + 61;
  RETURN NEXT;
END
$$;

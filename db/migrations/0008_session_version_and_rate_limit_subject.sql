ALTER TABLE "rate_limit_buckets" RENAME COLUMN "api_key_id" TO "subject_id";--> statement-breakpoint
ALTER TABLE "rate_limit_buckets" DROP CONSTRAINT "rate_limit_buckets_api_key_id_api_keys_id_fk";
--> statement-breakpoint
ALTER TABLE "rate_limit_buckets" DROP CONSTRAINT "rate_limit_buckets_api_key_id_bucket_pk";--> statement-breakpoint
ALTER TABLE "rate_limit_buckets" ADD CONSTRAINT "rate_limit_buckets_subject_id_bucket_pk" PRIMARY KEY("subject_id","bucket");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
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

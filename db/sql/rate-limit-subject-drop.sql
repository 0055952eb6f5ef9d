-- A deleted API key or user, and a revoked key (which no request can authenticate as again), takes its rate-limit
-- counters (rows and hit sequence, see rate_limit_hit) with it, so the sequences are only those of live keys and
-- users. The rows go first: a hit in flight holds the lock row and then the sequence, so waiting for the row before
-- taking the sequence's lock cannot deadlock with it.
CREATE OR REPLACE FUNCTION rate_limit_subject_dropped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM rate_limit_counters WHERE subject_id = OLD.id;
  EXECUTE format('DROP SEQUENCE IF EXISTS %I', rate_limit_sequence(OLD.id));
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER api_key_rate_limit_drop AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION rate_limit_subject_dropped();

CREATE OR REPLACE TRIGGER api_key_rate_limit_revoke AFTER UPDATE OF revoked_at ON api_keys
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION rate_limit_subject_dropped();

CREATE OR REPLACE TRIGGER user_rate_limit_drop AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION rate_limit_subject_dropped();

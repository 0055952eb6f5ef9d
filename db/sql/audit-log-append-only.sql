-- The audit log is append-only: no entry is ever changed, and one is deleted only once it is older than the
-- retention, which the deleting transaction declares with set_config('audit_log.retention_days', …, true)
-- (lib/audit/retention; 365 when it declares none, never under 1), or when its organization is deleted (the
-- cascade, during which that organization is no longer visible). TRUNCATE stays possible for the table's
-- owner: it is the operator's tool, not the application's, and the tests reset every table with it.
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  retention_days integer := greatest(1, coalesce(nullif(current_setting('audit_log.retention_days', true), '')::integer, 365));
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'audit_log is append-only: entries cannot be changed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.created_at >= now() - make_interval(days => retention_days)
     AND (OLD.organization_id IS NULL OR EXISTS (SELECT 1 FROM organizations o WHERE o.id = OLD.organization_id)) THEN
    RAISE EXCEPTION 'audit_log is append-only: entries younger than % days cannot be deleted', retention_days
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END $$;

CREATE OR REPLACE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- rate_limit_sequence(subject): the name of the subject's hit sequence (see rate_limit_hit), which counts every hit
-- ever admitted for it. rate_limit_hit creates it at the subject's first hit; rate_limit_subject_dropped drops it
-- when the key is revoked or deleted, or the user deleted.
CREATE OR REPLACE FUNCTION rate_limit_sequence(p_subject uuid) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'rate_limit_hits_' || replace(p_subject::text, '-', '')
$$;

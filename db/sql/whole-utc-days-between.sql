-- whole_utc_days_between(lo, hi): the whole UTC days within lo <= t < hi (a null bound is open), as
-- [first_day, end_day); when less than one whole day lies between the bounds, both are lo (or -infinity).
-- The day-counter readers (count-orders-matching.sql, order-date-page-start.sql) sum or walk their per-day
-- counters over these days and count only the partial days at either end row by row.
CREATE OR REPLACE FUNCTION whole_utc_days_between(lo timestamptz, hi timestamptz, OUT first_day timestamptz, OUT end_day timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  first_day := coalesce(date_trunc('day', lo, 'UTC'), '-infinity');
  end_day := coalesce(date_trunc('day', hi, 'UTC'), 'infinity');
  IF first_day < lo THEN
    first_day := first_day + interval '1 day';
  END IF;
  IF first_day >= end_day THEN
    first_day := coalesce(lo, '-infinity');
    end_day := first_day;
  END IF;
END $$;

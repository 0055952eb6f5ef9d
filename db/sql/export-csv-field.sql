-- export_csv_field(value): a text cell of the transactions export as one CSV field (lib/analytics/export-lines.ts
-- builds each line in the database, so the app holds one string per row instead of a row and its cells). A cell
-- a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return: CSV injection, OWASP)
-- gets a leading '; a field holding a quote, comma or line break is quoted per RFC 4180; null is empty. One
-- expression, so the planner inlines it into the export's query instead of calling a function per cell.
CREATE OR REPLACE FUNCTION export_csv_field(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    CASE WHEN value ~ '[",\r\n]'
      THEN '"' || CASE WHEN value ~ '^[=+@\t\r-]' THEN '''' ELSE '' END || replace(value, '"', '""') || '"'
      ELSE CASE WHEN value ~ '^[=+@\t\r-]' THEN '''' ELSE '' END || value
    END,
    '')
$$;

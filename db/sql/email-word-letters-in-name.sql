-- email_word_letters_in_name(word, lower_name): true when every run between digits of a word of an e-mail's local
-- part (email_words) is a substring of the lower-cased name. A `q` without digits that is in the word is then in one
-- run, so in the name: the order is a name match of every such `q`, never an e-mail-only one. Each row of
-- order_email_word_orders keeps it for its word and order as letters_in_name, and the search's e-mail-only matches of
-- such a `q` are read from the partial index of the rows where it is false (order_email_word_orders_unnamed_idx).
CREATE OR REPLACE FUNCTION email_word_letters_in_name(word text, lower_name text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT NOT EXISTS (SELECT 1 FROM regexp_split_to_table(word, '[0-9]+') AS run WHERE strpos(lower_name, run) = 0)
$$;

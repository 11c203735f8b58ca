-- A run's owner, as the database knows it: a random token per run. Finishing the run and marking its jobs gone
-- are allowed only to the holder of the token of a run still open, checked in the statement that writes, so a
-- crawl whose lock went with a lost connection can never finish (or retire jobs for) a run it no longer owns.
ALTER TABLE crawl_runs ADD COLUMN owner_token text;

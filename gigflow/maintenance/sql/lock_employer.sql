-- Serialises resolution per employer so two workers never open two canonical jobs for one vacancy.
SELECT pg_advisory_xact_lock(hashtextextended('gigflow:canonical:' || %(employer_key)s, 0))

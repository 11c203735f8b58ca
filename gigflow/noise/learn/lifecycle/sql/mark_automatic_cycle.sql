-- Bookkeeping for the hourly limit lives beside the filter; it never moves the token.
UPDATE configurations SET config = jsonb_set(config, '{noiseReview}',
    coalesce(config -> 'noiseReview', '{}'::jsonb) || jsonb_build_object('lastAutomaticAt', now()))
WHERE id = %(configuration_id)s

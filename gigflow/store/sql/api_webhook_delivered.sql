-- The receiver took the batch (or there was nothing to send up to this position): move on.
UPDATE api_webhooks SET position = %(position)s, failures = 0, last_error = NULL,
    last_delivered_at = CASE WHEN %(sent)s THEN now() ELSE last_delivered_at END
WHERE id = %(id)s AND position = %(from_position)s

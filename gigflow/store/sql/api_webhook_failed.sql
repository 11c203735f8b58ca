UPDATE api_webhooks SET failures = failures + 1, last_error = %(error)s WHERE id = %(id)s RETURNING failures

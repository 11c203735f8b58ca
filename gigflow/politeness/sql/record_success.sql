UPDATE politeness_keys SET error_count = 0, updated_at = clock_timestamp() WHERE key = %(key)s AND error_count <> 0

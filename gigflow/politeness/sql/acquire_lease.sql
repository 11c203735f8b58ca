SELECT lease_id, wait_seconds FROM politeness_acquire(%(key)s, %(interval)s, %(concurrency)s, %(lease_seconds)s, %(poll_seconds)s, %(holder)s, %(url)s, %(holder_lock)s)

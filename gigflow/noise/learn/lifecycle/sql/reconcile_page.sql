SELECT * FROM gigflow_noise_reconcile_page(%(after_id)s, %(limit)s)

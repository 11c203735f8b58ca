SELECT * FROM gigflow_noise_select_samples(%(configuration_id)s, %(limit)s)

SELECT * FROM gigflow_noise_reset(%(configuration_id)s)

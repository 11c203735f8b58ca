SELECT * FROM gigflow_noise_save(%(configuration_id)s, %(expected_token)s, %(filter)s, %(samples)s)

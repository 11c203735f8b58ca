DELETE FROM politeness_leases WHERE id = %(lease_id)s

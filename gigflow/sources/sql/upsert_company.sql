INSERT INTO companies (name) VALUES (%(company)s)
ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
RETURNING id

INSERT INTO delivery_cursors (name, position) VALUES (%(name)s, %(position)s)
ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()

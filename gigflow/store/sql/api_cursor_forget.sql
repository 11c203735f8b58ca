DELETE FROM delivery_cursors WHERE name = %(name)s

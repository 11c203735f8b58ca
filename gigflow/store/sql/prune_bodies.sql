-- Bodies no version references any more.
DELETE FROM bodies b WHERE NOT EXISTS (SELECT 1 FROM source_versions v WHERE v.sha256 = b.sha256)
RETURNING b.size

-- Whether a version of this source still stands for this body (its Markdown file is then kept).
SELECT EXISTS (SELECT 1 FROM source_versions WHERE source_id = %(source_id)s AND sha256 = %(sha256)s) AS kept

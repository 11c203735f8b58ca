"""Plain Scrapy items, so `-O jobs.jsonl` works with any exporter."""

import scrapy


class JobPageItem(scrapy.Item):
    """One fetched job page (or payload): its prepared Markdown and the ExtractionResult."""

    source_id = scrapy.Field()
    url = scrapy.Field()
    http_status = scrapy.Field()
    content_type = scrapy.Field()
    etag = scrapy.Field()
    last_modified = scrapy.Field()
    # Raw bytes travel to the storage pipeline, which stores them and replaces them by their sha256.
    body = scrapy.Field()
    sha256 = scrapy.Field()
    size = scrapy.Field()
    source_version_id = scrapy.Field()
    version_status = scrapy.Field()  # new | unchanged
    title = scrapy.Field()
    markdown = scrapy.Field()
    markdown_path = scrapy.Field()
    links = scrapy.Field()
    preparation = scrapy.Field()
    jobs = scrapy.Field()
    parser_key = scrapy.Field()
    parser_version = scrapy.Field()
    confidence = scrapy.Field()
    warnings = scrapy.Field()
    # Set when the page was not fetched (its sitemap lastmod is older than the stored version): the stored
    # version was read again and stands for the page.
    not_fetched = scrapy.Field()

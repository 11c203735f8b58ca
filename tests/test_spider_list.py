"""Every strategy is a spider that `scrapy list` names, and a source without that strategy is a clear error."""

from helpers import import_source, scrapy_command


def test_scrapy_list_names_every_strategy():
    result = scrapy_command("list")
    assert result.returncode == 0, result.stderr[-2000:]
    assert set(result.stdout.split()) >= {"href", "sitemap", "click", "feed", "ats", "mailbox"}


def test_source_without_the_strategy_is_a_clear_error(pool):
    import_source(pool, {"id": "only-feed", "company": "Feed Co", "canonical_url": "https://feed.example/",
                         "strategies": [{"type": "feed", "feed_urls": ["https://feed.example/jobs.rss"]}]}, "")
    result = scrapy_command("crawl", "sitemap", "-a", "source=only-feed")
    assert "source 'only-feed' has no 'sitemap' strategy" in result.stderr

"""Scrapy extensions: reactions to signals, kept out of spiders and pipelines."""

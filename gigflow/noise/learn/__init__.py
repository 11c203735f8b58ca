"""The learning half of noise: candidates, template detection, classifier, learner and the review lifecycle.

Run by `scrapy learn-noise`, `scrapy noise` and the worker; preparation never imports it (see gigflow.noise).
"""

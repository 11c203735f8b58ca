"""Turns fetched bodies into PreparedDocuments. Pure functions: no database, no network."""

from gigflow.documents.preparer import DocumentPreparer
from gigflow.documents.sniff import sniff_format
from gigflow.documents.html import HtmlFormat, prepare_html
from gigflow.documents.markdown import CONVERTERS, DEFAULT_CONVERTER, html_to_markdown
from gigflow.documents.types import PreparationReport, PreparationStep, PreparedDocument

__all__ = ["CONVERTERS", "DEFAULT_CONVERTER", "DocumentPreparer", "HtmlFormat", "PreparationReport",
           "PreparationStep", "PreparedDocument", "html_to_markdown", "prepare_html", "sniff_format"]

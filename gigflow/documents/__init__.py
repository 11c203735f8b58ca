"""Turns fetched bodies into PreparedDocuments. Pure functions: no database, no network."""

from gigflow.documents.html import prepare_html
from gigflow.documents.types import PreparationReport, PreparationStep, PreparedDocument

__all__ = ["PreparationReport", "PreparationStep", "PreparedDocument", "prepare_html"]

"""Shared form machinery: the CSRF extension every FlaskForm relies on, and choice lists."""

from collections.abc import Iterable

from flask_wtf.csrf import CSRFProtect
from wtforms import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3; types-WTForms lags

csrf = CSRFProtect()


def choices(pairs: Iterable[tuple[str, str]]) -> list[SelectChoice]:
    """(value, label) pairs as the choices of a select or radio field."""
    return [SelectChoice(value, label) for value, label in pairs]

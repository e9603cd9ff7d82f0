"""Shared form machinery: the CSRF extension every FlaskForm relies on."""

from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

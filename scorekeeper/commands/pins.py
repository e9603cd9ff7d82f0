"""Scorekeeper PINs: checked and hashed (salted scrypt) without any web request in sight."""

from __future__ import annotations

from werkzeug.security import check_password_hash, generate_password_hash

MIN_PIN, MAX_PIN = 4, 64
PIN_RULE = f"a PIN has {MIN_PIN} to {MAX_PIN} characters"


def hash_new_pin(pin: str) -> str:
    """The stored form of a new PIN; ValueError says what is wrong with it."""
    if not MIN_PIN <= len(pin) <= MAX_PIN:
        raise ValueError(PIN_RULE)
    return generate_password_hash(pin)


def pin_matches(pin_hash: str, pin: str) -> bool:
    return check_password_hash(pin_hash, pin)

"""The scorekeeper's notes on a game or a night (who hosted, which house rule was in force):
free text, kept as typed but bounded, and never a character that hides or reorders text."""

from __future__ import annotations

import unicodedata

from ..rules.setup import invisible_position

MAX_NOTE_LENGTH = 500


class NoteError(ValueError):
    """A note that cannot be kept as it is; the message says what to change."""


def clean_note(text: str) -> str:
    """The note as stored: one way to write each letter (NFC), lines ended by ``\\n``, tabs as spaces,
    no spaces at line ends or at either end of the note and never two blank lines running.
    Refused: more than 500 characters, or a control, zero-width or bidirectional character."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    kept: list[str] = []
    for line in (line.rstrip() for line in text.split("\n")):
        if line or (kept and kept[-1]):
            kept.append(line)
    note = "\n".join(kept).strip()
    if len(note) > MAX_NOTE_LENGTH:
        raise NoteError(
            f"a note is at most {MAX_NOTE_LENGTH} characters; this one has {len(note)}: "
            f"shorten it by {len(note) - MAX_NOTE_LENGTH}"
        )
    _check_visible(note)
    return note


def _check_visible(note: str) -> None:
    offset = 0
    for line in note.split("\n"):
        hidden = invisible_position(line)
        if hidden is not None:
            char = line[hidden - 1]
            raise NoteError(
                f"the note has an invisible or control character at position {offset + hidden} "
                f"(U+{ord(char):04X}): type that part again"
            )
        offset += len(line) + 1


def one_line(note: str) -> str:
    """A note on one line (a printed sheet keeps its height whatever the note's line breaks)."""
    return " / ".join(line for line in note.split("\n") if line)

# The one call the help pages make (Python-Markdown ships no types).
from collections.abc import Sequence

__version__: str

def markdown(text: str, *, extensions: Sequence[str] = ..., output_format: str = ...) -> str: ...

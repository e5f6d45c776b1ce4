# What scorer uses of weasyprint.text.fonts (see stubs/README.md).

class FontConfiguration:
    """The fonts WeasyPrint lays text out with (Pango's font map and the @font-face rules seen)."""

    def __init__(self) -> None: ...

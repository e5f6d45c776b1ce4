from typing import Any

from werkzeug.datastructures import FileStorage
from wtforms.fields import FileField as _FileField

class FileField(_FileField):
    data: FileStorage | None  # the uploaded file, or None when none was sent

class FileRequired:
    def __init__(self, message: str | None = None) -> None: ...
    def __call__(self, form: Any, field: Any) -> None: ...

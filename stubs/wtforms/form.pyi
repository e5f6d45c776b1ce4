# What scorer uses of WTForms' forms (see stubs/README.md).
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from wtforms.fields import Field, Validator

class BaseForm:
    def __iter__(self) -> Iterator[Field]: ...
    def __getitem__(self, name: str) -> Field: ...
    def validate(self, extra_validators: Mapping[str, Sequence[Validator]] | None = None) -> bool: ...

class Form(BaseForm):
    def __init__(
        self,
        formdata: Any = None,
        obj: object = None,
        prefix: str = "",
        data: Mapping[str, Any] | None = None,
        meta: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None: ...

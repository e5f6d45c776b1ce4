# What scorer uses of WTForms' choice fields (see stubs/README.md).
from collections.abc import Callable, Sequence
from typing import Any

from wtforms.fields import Field, Filter, Validator

# WTForms annotates a choice's value as str, but keeps whatever it is given and compares it with
# the coerced data: scorer gives ints to the fields it coerces with int.
class SelectChoice:
    value: str | int
    label: str
    def __init__(
        self,
        value: str | int,
        label: str | None = None,
        render_kw: dict[str, Any] | None = None,
        optgroup: str | None = None,
    ) -> None: ...

class SelectFieldBase(Field): ...

class SelectField(SelectFieldBase):
    data: Any  # the chosen value as the field's coerce made it (str unless told otherwise), or None
    choices: Sequence[SelectChoice] | None
    coerce: Callable[[Any], Any]
    def __init__(
        self,
        label: str | None = None,
        validators: Sequence[Validator] | None = None,
        coerce: Callable[[Any], Any] = ...,
        choices: Sequence[SelectChoice] | None = None,
        validate_choice: bool = True,
        *,
        filters: Sequence[Filter] = (),
        description: str = "",
        id: str | None = None,
        default: object = None,
        render_kw: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> None: ...

class RadioField(SelectField): ...

# What scorer uses of WTForms' fields (see stubs/README.md).
#
# A field is declared on the form's class and read on the form's instance, where WTForms has
# bound it: these stubs type the bound field (its data, errors and choices), which is all that
# scorer's Python touches; the templates render them.
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from wtforms.fields.choices import (
    RadioField as RadioField,
    SelectChoice as SelectChoice,
    SelectField as SelectField,
    SelectFieldBase as SelectFieldBase,
)

# A validator is called with the form and the field, and raises ValidationError or StopValidation;
# a filter takes the field's data and gives the data to keep.
Validator = Callable[[Any, Any], None]
Filter = Callable[[Any], Any]

class Label:
    field_id: str
    text: str

class Field:
    name: str
    id: str
    label: Label
    description: str
    data: Any
    errors: list[str]  # a tuple until the field is validated: scorer appends to it only after
    def __init__(
        self,
        label: str | None = None,
        validators: Sequence[Validator] | None = None,
        filters: Sequence[Filter] = (),
        description: str = "",
        id: str | None = None,
        default: object = None,
        render_kw: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> None: ...
    def process_formdata(self, valuelist: list[Any]) -> None: ...
    def pre_validate(self, form: Any) -> None: ...
    def validate(self, form: Any, extra_validators: Sequence[Validator] = ()) -> bool: ...

class StringField(Field):
    data: str | None

class HiddenField(StringField): ...

class BooleanField(Field):
    data: bool

class IntegerField(Field):
    data: int | None

class DecimalField(Field):
    data: Decimal | None
    def __init__(
        self,
        label: str | None = None,
        validators: Sequence[Validator] | None = None,
        places: int | None = 2,
        rounding: str | None = None,
        *,
        filters: Sequence[Filter] = (),
        description: str = "",
        id: str | None = None,
        default: object = None,
        render_kw: dict[str, Any] | None = None,
        name: str | None = None,
    ) -> None: ...

class FileField(Field): ...

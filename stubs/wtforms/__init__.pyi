# What scorer uses of WTForms 3.3 (see stubs/README.md).
from wtforms import validators as validators
from wtforms.fields import (
    BooleanField as BooleanField,
    DecimalField as DecimalField,
    Field as Field,
    FileField as FileField,
    HiddenField as HiddenField,
    IntegerField as IntegerField,
    StringField as StringField,
)
from wtforms.fields.choices import (
    RadioField as RadioField,
    SelectChoice as SelectChoice,
    SelectField as SelectField,
    SelectFieldBase as SelectFieldBase,
)
from wtforms.form import Form as Form

# What scorer uses of Flask-WTF 1.x (see stubs/README.md).
from flask_wtf.csrf import CSRFProtect as CSRFProtect
from flask_wtf.form import FlaskForm as FlaskForm

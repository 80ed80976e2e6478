"""pytest-postgates: blog posts as pytest test cases, one test per quality gate."""

__version__ = "0.1.0"

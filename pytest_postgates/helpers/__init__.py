"""Helpers shared by several gates (as markdownlint's ``helpers/``): plain functions of
text and posts that know no gate, so that no gate imports another.
"""

"""The torch backend: math ops."""

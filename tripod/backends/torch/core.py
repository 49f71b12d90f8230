"""The torch backend: core ops."""

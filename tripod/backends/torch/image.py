"""The torch backend: image ops."""

"""The torch backend: linalg ops."""

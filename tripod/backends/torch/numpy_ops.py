"""The torch backend: numpy_ops ops."""

"""The tensorflow backend: numpy_ops ops."""

"""The tensorflow backend: linalg ops."""

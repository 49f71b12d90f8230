"""The tensorflow backend: image ops."""

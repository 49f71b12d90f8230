"""The tensorflow backend: math ops."""

"""The tensorflow backend: core ops."""

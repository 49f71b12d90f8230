"""The numpy backend: math ops."""

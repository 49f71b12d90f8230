"""The numpy backend: image ops."""

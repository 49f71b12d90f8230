"""The numpy backend: linalg ops."""

"""The jax backend: linalg ops."""

"""The jax backend: image ops."""

"""The jax backend: math ops."""

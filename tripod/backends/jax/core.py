"""The jax backend: core ops."""

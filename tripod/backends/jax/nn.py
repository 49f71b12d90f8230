"""The jax backend: nn ops."""

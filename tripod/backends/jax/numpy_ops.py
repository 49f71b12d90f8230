"""The jax backend: numpy_ops ops."""

"""The jax backend: random ops."""

"""Keras 3 in this process for the interoperability tests (on JAX unless `KERAS_BACKEND` is
set or Keras is imported already); the tests using it are skipped where Keras is missing."""

import os

import pytest


def import_keras():
    """Keras, leaving `KERAS_BACKEND` as it was for later subprocesses."""
    saved = os.environ.get("KERAS_BACKEND")
    os.environ.setdefault("KERAS_BACKEND", "jax")
    try:
        return pytest.importorskip("keras")
    finally:
        if saved is None:
            del os.environ["KERAS_BACKEND"]

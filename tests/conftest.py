"""Test-wide settings: the suite runs on the backend named by TRIPOD_BACKEND."""

import os

import pytest

from tripod.backends import active
from tripod.backends import config as tripod_config
from tripod.layers import dtype_policies


def pytest_report_header(config):
    return f"tripod backend: {tripod_config.backend()} (TRIPOD_BACKEND={os.environ.get('TRIPOD_BACKEND')})"


@pytest.fixture
def backend():
    """The assembled backend under test."""
    return active()


@pytest.fixture
def bfloat16_policy():
    """The `mixed_bfloat16` policy for the test, float32 again after it."""
    dtype_policies.set_dtype_policy("mixed_bfloat16")
    yield
    dtype_policies.set_dtype_policy("float32")

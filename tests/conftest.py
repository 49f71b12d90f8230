"""Test-wide settings: the suite runs on the backend named by TRIPOD_BACKEND."""

import os

import pytest

from tripod.backends import config


def pytest_report_header(config_):
    return f"tripod backend: {config.backend()} (TRIPOD_BACKEND={os.environ.get('TRIPOD_BACKEND')})"


@pytest.fixture
def backend():
    """The assembled backend under test."""
    from tripod.backends import active

    return active()

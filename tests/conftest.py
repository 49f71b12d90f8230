"""Test-wide settings: the suite runs on the backend named by TRIPOD_BACKEND."""

import os

import pytest

from tripod.backends import active
from tripod.backends import config as tripod_config


def pytest_report_header(config):
    return f"tripod backend: {tripod_config.backend()} (TRIPOD_BACKEND={os.environ.get('TRIPOD_BACKEND')})"


@pytest.fixture
def backend():
    """The assembled backend under test."""
    return active()

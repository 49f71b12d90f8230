"""The engine helpers every backend shares: the distribution timeout and the default rows."""

import pytest

from tripod.backends.common import engine


def test_the_timeout_defaults_and_reads_the_variable(monkeypatch):
    monkeypatch.delenv("TRIPOD_DISTRIBUTION_TIMEOUT", raising=False)
    assert engine.timeout_seconds() == 120.0
    monkeypatch.setenv("TRIPOD_DISTRIBUTION_TIMEOUT", "7.5")
    assert engine.timeout_seconds() == 7.5


@pytest.mark.parametrize("text", ["soon", "0", "-3"])
def test_the_timeout_must_be_a_positive_number(monkeypatch, text):
    monkeypatch.setenv("TRIPOD_DISTRIBUTION_TIMEOUT", text)
    with pytest.raises(
        ValueError, match=f"TRIPOD_DISTRIBUTION_TIMEOUT must be a positive.*'{text}'"
    ):
        engine.timeout_seconds()


def test_each_process_feeds_its_share_of_the_rows_by_default():
    default = engine.Engine(distribution=None)
    assert [default.process_rows(8, i, 2) for i in range(2)] == [(0, 4), (4, 8)]

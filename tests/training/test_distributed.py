"""The trainer's seam with a distribution: each process's rows of a batch, and batch checks."""

import numpy as np
import pytest

from tripod.backends.common import engine
from tripod.distribution import DataParallel
from tripod.training import distributed


class _Recorder:
    def __init__(self):
        self.batches = []

    def __call__(self, batch):
        self.batches.append(batch)
        return {}

    def sync(self):
        pass


def _step(monkeypatch, count, index, replicas):
    monkeypatch.setattr(distributed.processes, "num_processes", lambda: count)
    monkeypatch.setattr(distributed.processes, "process_id", lambda: index)
    inner = _Recorder()
    dist = DataParallel(devices=[f"cpu:{i}" for i in range(replicas)])
    dist._engine = engine.Engine(dist)  # the default rows: each process's 1/N share, in order
    return distributed.ProcessShareStep(inner, dist, "m"), inner


def test_each_process_passes_on_its_rows(monkeypatch):
    x, y = np.arange(8).reshape(8, 1), np.arange(8)
    for index in range(2):
        step, inner = _step(monkeypatch, 2, index, 2)
        step((x, y, None))
        got_x, got_y, weight = inner.batches[0]
        assert got_x.ravel().tolist() == list(range(4 * index, 4 * index + 4))
        assert got_y.tolist() == got_x.ravel().tolist() and weight is None


def test_one_process_passes_on_the_whole_batch(monkeypatch):
    step, inner = _step(monkeypatch, 1, 0, 2)
    batch = {"a": np.zeros((6, 2))}
    step(batch)
    assert inner.batches[0] is batch


def test_a_batch_that_does_not_split_over_the_replicas_is_an_error(monkeypatch):
    step, _ = _step(monkeypatch, 1, 0, 4)
    with pytest.raises(
        ValueError, match=r"model 'm'.*batch of 6 samples does not split over the 4 replicas"
    ):
        step((np.zeros((6, 1)),))


def test_processes_agree_on_shuffles(monkeypatch):
    class _Adapter:
        rng = np.random

    class _Engine:
        agreements = 0

        @classmethod
        def agreed_seed(cls):
            cls.agreements += 1
            return 1234

    class _Dist:
        engine = _Engine()

    monkeypatch.setattr(distributed, "distribution", lambda: _Dist())
    monkeypatch.setattr(distributed.processes, "num_processes", lambda: 2)
    first = distributed.agree_on_shuffles(_Adapter(), True).rng.permutation(10)
    second = distributed.agree_on_shuffles(_Adapter(), True).rng.permutation(10)
    assert first.tolist() == second.tolist()
    unshuffled = _Adapter()
    assert distributed.agree_on_shuffles(unshuffled, False) is unshuffled
    assert _Engine.agreements == 2  # no collective for data read in order

"""Every example runs on the active backend (shortened where it trains)."""

import os
import runpy

import numpy as np
import pytest

from tripod.backends import config

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples")


def load(name):
    return runpy.run_path(os.path.join(EXAMPLES, f"{name}.py"), run_name="example")


def test_quickstart_trains(capsys):
    losses = load("quickstart")["main"](epochs=60)
    assert f"on the {config.backend()} backend" in capsys.readouterr().out
    if config.backend() != "numpy":
        assert losses[-1] < 0.2 * losses[0]


@pytest.mark.skipif(config.backend() == "numpy", reason="the numpy backend is inference-only")
def test_gan_custom_step_learns_the_target_mean():
    samples = load("gan_custom_step")["main"](epochs=40)
    assert abs(float(np.mean(samples)) - 3.0) < 1.0

"""The numpy backend: hooks for layers and training."""

import contextlib

import numpy as np

from tripod.backends import dtypes
from tripod.backends.common import devices, spec
from tripod.backends.common.steps import Step

__all__ = ["compile_step", "compute_output_spec", "device_scope", "remat", "value_and_grad"]


def compute_output_spec(fn, *args, **kwargs):
    return spec.output_spec_by_running(
        fn, args, kwargs, lambda shape, dtype: np.zeros(shape, dtypes.to_numpy(dtype))
    )


def value_and_grad(fn, variables, has_aux=False):
    raise NotImplementedError(
        "The numpy backend is inference-only: it computes no gradients. Train on jax, torch or "
        "tensorflow (TRIPOD_BACKEND), then load the weights here."
    )


def compile_step(fn, state_variables, mode, jit_compile, run_eagerly):
    if mode == "train":
        raise NotImplementedError(
            "The numpy backend is inference-only: fit() and train_on_batch() need jax, torch or "
            "tensorflow (set TRIPOD_BACKEND). evaluate() and predict() work here."
        )
    return Step(fn)


def device_scope(device_name):
    kind, _ = devices.parse_device(device_name)
    if kind != "cpu":
        raise ValueError(
            f"device: the numpy backend runs on the CPU only, received {device_name!r}."
        )
    return contextlib.nullcontext()


def remat(f):
    """Nothing to recompute where no gradients are taken (numpy is inference-only)."""
    return f

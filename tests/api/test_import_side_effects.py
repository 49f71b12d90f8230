"""Importing and using tripod changes no framework-global setting the user's own code sees.

A fresh interpreter records the settings of numpy, of the active backend's framework and the
environment; then imports tripod, records them again, runs a layer and (on the training
backends) one epoch of `fit`, and records them a third time. All three records must be equal.
(Warning filters and logger levels are left out: the libraries tripod imports lazily, such as
torch's compiler, set their own when imported; tripod sets them only within a block.)
"""

import json
import os
import subprocess
import sys

from tripod.backends import config

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: run in the fresh interpreter: `settings()` returns every global setting as text
SNAPSHOT = r"""
import json, os, sys
import numpy as np

BACKEND = os.environ["TRIPOD_BACKEND"]


def jax_settings():
    import jax
    import jax.numpy as jnp

    names = [
        "jax_enable_x64", "jax_default_matmul_precision", "jax_numpy_dtype_promotion",
        "jax_numpy_rank_promotion", "jax_default_prng_impl", "jax_debug_nans", "jax_disable_jit",
        "jax_platforms", "jax_default_device", "jax_compilation_cache_dir",
    ]
    out = {name: getattr(jax.config, name) for name in names}
    out["jnp.asarray(float64 numpy)"] = jnp.asarray(np.eye(2)).dtype
    out["jnp.arange"] = jnp.arange(2).dtype
    return out


def torch_settings():
    import torch

    return {
        "default dtype": torch.get_default_dtype(),
        "threads": torch.get_num_threads(),
        "interop threads": torch.get_num_interop_threads(),
        "float32 matmul precision": torch.get_float32_matmul_precision(),
        "deterministic": torch.are_deterministic_algorithms_enabled(),
        "grad enabled": torch.is_grad_enabled(),
        "cudnn": (torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic,
                  torch.backends.cudnn.allow_tf32),
        "cuda matmul tf32": torch.backends.cuda.matmul.allow_tf32,
    }


def tensorflow_settings():
    import tensorflow as tf

    return {
        "threads": (tf.config.threading.get_inter_op_parallelism_threads(),
                    tf.config.threading.get_intra_op_parallelism_threads()),
        "tf32": tf.config.experimental.tensor_float_32_execution_enabled(),
        "functions run eagerly": tf.config.functions_run_eagerly(),
        "soft placement": tf.config.get_soft_device_placement(),
        "eager": tf.executing_eagerly(),
        "jit": tf.config.optimizer.get_jit(),
        "visible devices": [d.name for d in tf.config.get_visible_devices()],
        "memory growth": [tf.config.experimental.get_memory_growth(d)
                          for d in tf.config.list_physical_devices("GPU")],
    }


FRAMEWORK = {"jax": jax_settings, "torch": torch_settings, "tensorflow": tensorflow_settings}


def settings():
    # The framework first: what importing it sets (jax sets TF_CPP_MIN_LOG_LEVEL) is its own.
    out = FRAMEWORK[BACKEND]() if BACKEND in FRAMEWORK else {}
    out["numpy errors"] = np.geterr()
    out["numpy print options"] = sorted(np.get_printoptions().items())
    out.update({f"environment {k}": v for k, v in os.environ.items()})
    return json.loads(json.dumps(out, default=str))


before = settings()
import tripod

imported = settings()
model = tripod.Sequential([tripod.Input((3,)), tripod.layers.Dense(2)])
x, y = np.ones((8, 3), "float32"), np.zeros((8, 2), "float32")
model.predict(x, verbose=0)
if BACKEND != "numpy":
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=1, verbose=0)
used = settings()
print(json.dumps([before, imported, used]))
"""


def _changes(old, new):
    """The settings that differ between two records, as `name: old -> new` lines."""
    names = sorted(old.keys() | new.keys())
    return [f"{k}: {old.get(k)!r} -> {new.get(k)!r}" for k in names if old.get(k) != new.get(k)]


def test_importing_and_using_tripod_leaves_every_global_setting_alone():
    prefixes = ("TRIPOD_", "JAX_", "XLA_", "TF_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env["TRIPOD_BACKEND"] = config.backend()
    out = subprocess.run(
        [sys.executable, "-c", SNAPSHOT],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    before, imported, used = json.loads(out.stdout.strip().splitlines()[-1])
    assert not _changes(before, imported), "importing tripod changed:\n" + "\n".join(
        _changes(before, imported)
    )
    assert not _changes(before, used), "using tripod changed:\n" + "\n".join(_changes(before, used))

"""The JAX backend: hooks for layers and training."""

import jax
import numpy as np

from tripod.backends.common import devices, remat_args, spec, stateless
from tripod.backends.jax import distribution as jax_distribution
from tripod.backends.jax import export
from tripod.backends.jax.trainer import make_step

__all__ = [
    "compute_output_spec",
    "device_scope",
    "distribution_engine",
    "export_artifact",
    "export_formats",
    "initialize_processes",
    "list_devices",
    "lstm_sequence",
    "process_count",
    "process_index",
    "remat",
    "value_and_grad",
]


def compute_output_spec(fn, *args, **kwargs):
    return spec.output_spec_by_running(
        fn, args, kwargs, jax.ShapeDtypeStruct, lambda call, tensors: jax.eval_shape(call, tensors)
    )


def value_and_grad(fn, variables, has_aux=False):
    variables = list(variables)
    differentiated = {id(v) for v in variables}

    assigned = []  # the other variables fn assigns, found while tracing (variables are pytree
    # nodes: through jax's aux output they would come back as their values)

    def pure(values, args, kwargs):
        with stateless.StatelessScope(state_mapping=zip(variables, values)) as scope:
            out = fn(*args, **kwargs)
        others = [(v, value) for v, value in scope.updates if id(v) not in differentiated]
        assigned[:] = [v for v, _ in others]
        return (out[0] if has_aux else out), (out, [value for _, value in others])

    grad_fn = jax.value_and_grad(pure, has_aux=True)

    def run(*args, **kwargs):
        (_, (out, values)), grads = grad_fn([v.value for v in variables], args, kwargs)
        # Assignments to other variables (moving statistics, seeds) made during fn still apply.
        for variable, value in zip(assigned, values):
            variable.assign(value)
        return out, grads

    return run


def list_devices(device_type=None):
    return jax_distribution.list_devices(device_type)


def initialize_processes(job_addresses, num_processes, process_id):
    return jax_distribution.initialize_processes(job_addresses, num_processes, process_id)


def process_count():
    return jax_distribution.process_count()


def process_index():
    return jax_distribution.process_index()


def distribution_engine(distribution):
    return jax_distribution.Engine(distribution, make_step)


def device_scope(device_name):
    kind, index = devices.parse_device(device_name)
    try:
        device = jax.devices(kind)[index]
    except (RuntimeError, IndexError):
        raise ValueError(
            f"device: jax has no device {device_name!r}; it has {jax.devices()}."
        ) from None
    return jax.default_device(device)


def remat(f):
    return remat_args.tensor_only(
        f, lambda x: isinstance(x, (jax.Array, np.ndarray)), jax.checkpoint
    )


def export_formats():
    return export.export_formats()


def export_artifact(format, endpoints, filepath, options):
    return export.export_artifact(format, endpoints, filepath, options)


def lstm_sequence(inputs, h, c, kernel, recurrent_kernel, bias):
    """None: XLA runs the layer's cell scan faster than a scan over a precomputed input
    projection (measured 2.3x in training and predict on the LSTM benchmark, CPU)."""
    del inputs, h, c, kernel, recurrent_kernel, bias

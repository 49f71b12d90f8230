"""Hooks with one answer for every backend that does not define its own."""

import contextlib


def no_grad():
    """Nothing to switch off where gradients are functional (computed only when asked for)."""
    return contextlib.nullcontext()


def fuse_variables(variables, name):
    """Variables that cannot share storage fuse into nothing: optimizers update them one by one."""
    del variables, name


def optimizer_kernel(name):
    """No fused kernels: optimizers run their rule written in `tripod.ops`."""
    del name


def compile_state_step(fn, state_groups, mode, jit_compile, run_eagerly):
    """Only JAX steps take and return their state: elsewhere a custom step is `step(self, data)`."""
    del state_groups, jit_compile, run_eagerly
    name = getattr(fn, "__qualname__", f"{mode}_step")
    raise TypeError(
        f"{name}(self, state, data) is the JAX backend's stateless {mode} step, which this backend "
        f"does not run: write {mode}_step(self, data), which updates the variables in place (or "
        "use tripod.value_and_grad to write one step for every backend)."
    )


def zero_grad(variables, set_to_none=True):
    """No backend but torch accumulates gradients on variables: there is nothing to clear."""
    del variables, set_to_none
    raise NotImplementedError(
        "zero_grad() clears the gradients that `loss.backward()` accumulates, which only the torch "
        "backend does. On this backend take gradients functionally: `tripod.value_and_grad(fn, "
        "variables)` (or the backend's own, e.g. `jax.grad`, `tf.GradientTape`)."
    )


def native_parameters(variables):
    """Only torch layers are modules whose parameters a native optimizer updates in place."""
    del variables
    raise NotImplementedError(
        "parameters() / named_parameters() hand a layer's torch.nn.Parameters to a torch optimizer "
        "(`torch.optim.Adam(model.parameters())`), a pattern only the torch backend has. On this "
        "backend take gradients with `tripod.value_and_grad(fn, model.trainable_variables)` and "
        "apply them with a tripod optimizer: `model.optimizer.apply(grads, "
        "model.trainable_variables)`."
    )


def worker_seed():
    """No worker processes of the framework's own: the main process draws."""
    return


def list_devices(device_type=None):
    """A backend without devices of its own computes on the host CPU."""
    return [] if device_type not in (None, "cpu") else ["cpu:0"]


def initialize_processes(job_addresses, num_processes, process_id):
    """Only jax, torch and tensorflow run as several processes."""
    del job_addresses, num_processes, process_id
    raise NotImplementedError(
        "tripod.distribution.initialize: this backend runs in one process; use jax, torch or tensorflow."
    )


def process_count():
    """One process: this backend never joins a multi-process run."""
    return 1


def process_index():
    """The only process."""
    return 0


def distribution_engine(distribution):
    """Only jax, torch and tensorflow distribute."""
    raise NotImplementedError(
        f"{type(distribution).__name__}: this backend does not distribute; use jax, torch or "
        "tensorflow (TRIPOD_BACKEND)."
    )


def export_formats():
    """The reference backend writes no artifacts."""
    return ()


def export_artifact(format, endpoints, filepath, options):
    """Nothing to export with: the caller checks `export_formats()` first."""
    del endpoints, filepath, options
    raise NotImplementedError(f"model.export(format={format!r}) is not available on this backend.")


def adopt_variable(native, name, trainable):
    """Only torch and tensorflow have framework variables to share."""
    del trainable
    raise TypeError(
        f"Cannot make variable {name!r} from a {type(native).__name__}: this backend has no "
        "framework variables (TorchModuleWrapper needs the torch backend, TFSMLayer tensorflow)."
    )


def load_saved_model(filepath):
    """SavedModels load on the tensorflow backend only."""
    raise NotImplementedError(
        f"TFSMLayer({filepath!r}) runs a TensorFlow SavedModel, which needs the tensorflow backend "
        "(TRIPOD_BACKEND=tensorflow)."
    )


def distribute_strategy(engine=None):
    """tf.distribute strategies exist on the tensorflow backend only."""
    del engine
    raise NotImplementedError(
        "a tf.distribute strategy exists on the tensorflow backend alone (Keras's tensorflow "
        "trainer is the one with Model.distribute_strategy)."
    )


def gru_sequence(inputs, h, kernel, recurrent_kernel, bias):
    """No fused GRU kernel: the layer scans its cell."""
    del inputs, h, kernel, recurrent_kernel, bias


#: hook name -> default implementation
HOOKS = {
    "compile_state_step": compile_state_step,
    "no_grad": no_grad,
    "fuse_variables": fuse_variables,
    "optimizer_kernel": optimizer_kernel,
    "zero_grad": zero_grad,
    "native_parameters": native_parameters,
    "worker_seed": worker_seed,
    "list_devices": list_devices,
    "initialize_processes": initialize_processes,
    "process_count": process_count,
    "process_index": process_index,
    "distribution_engine": distribution_engine,
    "export_formats": export_formats,
    "export_artifact": export_artifact,
    "adopt_variable": adopt_variable,
    "load_saved_model": load_saved_model,
    "distribute_strategy": distribute_strategy,
    "gru_sequence": gru_sequence,
}

"""Hooks with one answer for every backend that does not define its own."""

import contextlib


def no_grad():
    """Nothing to switch off where gradients are functional (computed only when asked for)."""
    return contextlib.nullcontext()


def fuse_variables(variables, name):
    """Variables that cannot share storage fuse into nothing: optimizers update them one by one."""
    del variables, name
    return None


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
    return None


#: hook name -> default implementation
HOOKS = {
    "compile_state_step": compile_state_step,
    "no_grad": no_grad,
    "fuse_variables": fuse_variables,
    "zero_grad": zero_grad,
    "native_parameters": native_parameters,
    "worker_seed": worker_seed,
}

"""Steps under `torch.compile` (`jit_compile=True`): static shapes, and an eager fallback for a
step that torch.compile cannot handle, announced once, that never leaves a half-run step behind."""

import importlib
import warnings

import torch

from tripod.backends.torch import recurrent

#: calls of a step per batch signature during which torch.compile may still (re)compile it and
#: the state is saved first, so a failed compilation can be undone (after the warm-up, a cache
#: only the traced path fills can still make the second call compile again)
_GUARDED_CALLS = 2


class CompiledStep:
    """`fn(batch)` compiled by torch.compile; run eagerly from the first failure to compile on.

    Shapes are static (`dynamic=False`): a new batch shape compiles anew rather than tracing
    Python ints as symbols, which torch.compile can evaluate wrongly in branches on them.
    Recompilations are counted per step (`isolate_recompiles`): the frames a graph break leaves
    (library code every model runs) would otherwise count every model's compilations against
    one limit, past which torch runs them eagerly without a word.
    """

    def __init__(self, fn, state_variables, what, owner=None):
        self._eager = fn
        recurrent.keep_out_of_compiled_graphs()
        self._compiled = torch.compile(_own_code(fn), dynamic=False, isolate_recompiles=True)
        # Loaded by torch.compile; importing it with tripod would cost every process ~1 s and
        # ~70 MiB (dynamo pulls in sympy, FSDP and DTensor).
        self._compile_errors = importlib.import_module("torch._dynamo.exc").TorchDynamoException
        # Traced, `torch.autograd.grad` joins the step's graph instead of breaking it in two.
        self._tracing = importlib.import_module("torch._dynamo.config").patch(
            trace_autograd_ops=True
        )
        self._variables = list(state_variables)
        self._what = what
        self._owner = owner
        self._calls = {}
        self.failed = False

    def __call__(self, batch):
        if self.failed:
            return self._eager(batch)
        signature = _signature(batch)
        calls = self._calls.get(signature, 0)
        guarded = calls < _GUARDED_CALLS
        saved = [_copy(v.value) for v in self._variables] if guarded else []
        if not calls:
            self._warm_up(batch, saved)
        try:
            with self._tracing:
                outputs = self._compiled(batch)
        except self._compile_errors as error:
            return self._fall_back(batch, saved, error)
        if guarded:
            self._calls[signature] = calls + 1
        return outputs

    def _warm_up(self, batch, saved):
        """Run the step eagerly once and undo its updates, before its first trace: the Python
        caches a step fills on first use (dtype tables, the optimizer's layout) are then full
        when torch.compile traces; filled by the trace, each would fail a guard and compile the
        step again on its next call."""
        self._eager(batch)
        self._restore(saved)

    def _restore(self, saved):
        with torch.no_grad():
            for variable, value in zip(self._variables, saved):
                variable.value.copy_(value)

    def _fall_back(self, batch, saved, error):
        """Undo what the failed attempt changed (when saved) and run the step eagerly (its
        error, if any, is the user's own and raises as it would eagerly), from now on; warn once."""
        self._restore(saved)
        outputs = self._eager(batch)
        self.failed = True
        warnings.warn(
            f"torch.compile could not compile the {self._what}{_where(self._owner, error)}: "
            f"{_reason(error)}. This step runs eagerly (jit_compile=False) from now on.",
            RuntimeWarning,
            stacklevel=3,
        )
        return outputs


def _own_code(fn):
    """A function calling `fn`, with a code object of its own: torch.compile caps the
    compilations of each code object across all steps (`accumulated_recompile_limit`), and
    every model's steps sharing one would pass that cap, leaving later models uncompiled."""

    def step(batch):
        return fn(batch)

    step.__code__ = step.__code__.replace()
    return step


def _signature(batch):
    """The shapes and dtypes of a batch's tensors: what makes torch.compile compile anew."""
    if isinstance(batch, torch.Tensor):
        return (tuple(batch.shape), batch.dtype)
    if isinstance(batch, (list, tuple)):
        return tuple(_signature(part) for part in batch)
    if isinstance(batch, dict):
        return tuple((key, _signature(batch[key])) for key in sorted(batch))
    return type(batch)


def _copy(value):
    return value.detach().clone()


def _reason(error):
    """The first line of a torch.compile error (of the backend's own error, when it failed)."""
    inner = getattr(error, "inner_exception", None)
    error = error if inner is None else inner
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[0]}" if lines else type(error).__name__


def _where(owner, error):
    """' (in layer ...)': the layers whose `call` the failure happened in, innermost first."""
    stack = getattr(error, "real_stack", None) or []
    layers = list(owner._flatten_layers()) if hasattr(owner, "_flatten_layers") else []
    for frame in reversed(stack):
        names = [
            f"'{layer.name}' ({type(layer).__name__})" for layer in layers if _runs_in(layer, frame)
        ]
        if names:
            return f" of model '{owner.name}', in layer {', '.join(names)}"
    if stack:
        frame = stack[-1]
        return f" (at {frame.filename}:{frame.lineno}, in {frame.name})"
    return f" of model '{owner.name}'" if hasattr(owner, "name") else ""


def _runs_in(layer, frame):
    """Whether stack frame `frame` lies in the `call` method of `layer`'s class."""
    code = getattr(getattr(type(layer), "call", None), "__code__", None)
    if code is None or frame.name != "call" or frame.filename != code.co_filename:
        return False
    lines = [line for _, _, line in code.co_lines() if line is not None]
    return bool(lines) and code.co_firstlineno <= frame.lineno <= max(lines)

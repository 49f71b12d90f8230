"""What an exported artifact computes: a function of flat, named tensors, ready for a converter.

A `ServingFunction` is the one object every backend's exporter receives. It runs a model (or
any function an `ExportArchive` endpoint names) on flat tensors in the order of its `specs` and
returns a flat list of outputs in the order of `output_names`, reading the variables live, or,
through `stateless`, with substitute values for them (how jax traces a pure function).
"""

import numpy as np

from tripod.backends import active, dtypes
from tripod.backends.common import stateless, tree
from tripod.backends.common.keras_tensor import KerasTensor

ops = active()

#: the name every exporter gives to a tensor's leading unknown dim
BATCH = "batch"
#: the size that stands in for the batch dim when a converter traces with example inputs (not 1,
#: which converters specialize on); other unknown dims get `OTHER_SIZE`
TRACE_BATCH = 2
OTHER_SIZE = 3


class TensorSpec:
    """One input of an exported function: its name, shape (None where any size goes) and dtype."""

    def __init__(self, name, shape, dtype):
        self.name = name
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = dtypes.standardize_dtype(dtype)

    def dynamic_axes(self):
        """{axis: readable name} for each unknown dim: "batch" for axis 0, else "<name>_<axis>"."""
        return {
            axis: BATCH if axis == 0 else f"{self.name}_{axis}"
            for axis, d in enumerate(self.shape)
            if d is None
        }

    def example(self, seed=0):
        """A NumPy array fitting this spec, for tracing: batch `TRACE_BATCH`, other unknown dims
        `OTHER_SIZE`; small random floats, zeros for integers (a valid index anywhere)."""
        shape = tuple(
            (TRACE_BATCH if axis == 0 else OTHER_SIZE) if d is None else d
            for axis, d in enumerate(self.shape)
        )
        if dtypes.is_float(self.dtype):
            return np.random.default_rng(seed).uniform(-1, 1, shape).astype(self.dtype)
        return np.zeros(shape, self.dtype)

    def __repr__(self):
        return f"TensorSpec(name={self.name!r}, shape={self.shape}, dtype={self.dtype!r})"


def unique_names(names):
    """`names` with repeats suffixed "_1", "_2", ... (an artifact's inputs and outputs need
    distinct names; a model may return one layer's output twice)."""
    seen, out = {}, []
    for name in names:
        count = seen.get(name, 0)
        seen[name] = count + 1
        out.append(f"{name}_{count}" if count else name)
    return out


class ServingFunction:
    """`fn` as a function of flat tensors, one per leaf of `input_structure` (a structure of
    `TensorSpec`s, one entry per positional argument of `fn`), returning a flat list of outputs.

    `variables` are every variable `fn` reads (a converter turns them into weights);
    `output_names` name the flat outputs (a dict output's keys by default).
    """

    def __init__(self, fn, input_structure, variables, name="serve", output_names=None):
        self.fn = fn
        self.name = name
        self.input_structure = input_structure
        self.specs = tree.flatten(input_structure)
        self.variables = list(variables)
        self._output_names = output_names
        self._output_structure = None

    def __call__(self, *flat_inputs):
        """The flat outputs of `fn` on `flat_inputs` (backend tensors in the order of `specs`)."""
        return tree.flatten(self.fn(*self.pack_inputs(flat_inputs)))

    def stateless(self, values, *flat_inputs):
        """`self(*flat_inputs)` with `values[i]` standing in for `variables[i]` (a pure function
        of its arguments, for tracers such as `jax.jit`)."""
        with stateless.StatelessScope(state_mapping=zip(self.variables, values)):
            return self(*flat_inputs)

    def output_specs(self):
        """KerasTensors for the flat outputs, in the order of `output_names`."""
        return tree.flatten(self._outputs())

    def _outputs(self):
        """`fn`'s output structure as KerasTensors (found by abstract evaluation, once)."""
        if self._output_structure is None:
            symbolic = [KerasTensor(s.shape, s.dtype, name=s.name) for s in self.specs]

            def structured(*flat):
                return self.fn(*self.pack_inputs(flat))

            # in a stateless scope: a layer assigning state (a JaxLayer's) must not write the
            # stand-in values into its variables
            with stateless.StatelessScope():
                self._output_structure = ops.compute_output_spec(structured, *symbolic)
        return self._output_structure

    @property
    def output_names(self):
        """One name per flat output: the given names, else a dict output's keys (nested keys
        joined by "/"), else "output_0", "output_1", ...; suffixed "_1", ... where one repeats
        another output's or an input's name."""
        if self._output_names is None:
            paths = [path for path, _ in tree.flatten_with_path(self._outputs())]
            named = all(path and all(isinstance(key, str) for key in path) for path in paths)
            self._output_names = (
                ["/".join(path) for path in paths]
                if named
                else [f"output_{i}" for i in range(len(paths))]
            )
        inputs = [spec.name for spec in self.specs]  # a graph names inputs and outputs apart
        return unique_names(inputs + list(self._output_names))[len(inputs) :]

    def pack_inputs(self, flat_inputs):
        """Flat inputs rebuilt into `fn`'s positional arguments (a tuple)."""
        return tuple(tree.pack_sequence_as(self.input_structure, list(flat_inputs)))

    def pack_outputs(self, flat_outputs):
        """Flat outputs rebuilt into the structure `fn` returns."""
        return tree.pack_sequence_as(self._outputs(), list(flat_outputs))

    def example_inputs(self, seed=0):
        """One NumPy array per spec, for converters that trace with concrete tensors."""
        return [spec.example(seed + i) for i, spec in enumerate(self.specs)]

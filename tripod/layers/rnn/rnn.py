"""`RNN`: runs a recurrent cell over the time axis of a sequence with `ops.scan`.

A cell is any object with `call(inputs, states, training=None) -> (output, new_states)` and a
`state_size` (an int or a nested list of ints, one per state); `output_size` defaults to the first
state's size. A cell whose states are not vectors (e.g. the ConvLSTM cell) gives its own
`get_initial_state(batch_size)`. The loop is one `ops.scan`, so it traces under `jax.jit` and
`tf.function` and runs step by step on torch and numpy.

The built-in layers that make their own cell (SimpleRNN, GRU, LSTM, ConvLSTM) derive from
`_OwnCellRNN`.
"""

import inspect

from tripod.backends import active
from tripod.backends.common import tree
from tripod.backends.common.keras_tensor import KerasTensor
from tripod.layers import initializers, regularizers
from tripod.layers.input_spec import InputSpec
from tripod.layers.layer import Layer
from tripod.layers.rnn.dropout_rnn_cell import DropoutRNNCell, state_list
from tripod.layers.rnn.stacked_rnn_cells import StackedRNNCells
from tripod.saving import serialization

ops = active()


def _expand_mask(mask, ndim):
    """A (batch,) mask reshaped to broadcast against a rank-`ndim` tensor."""
    return ops.reshape(mask, (-1,) + (1,) * (ndim - 1)) if ndim > 1 else mask


def _flat_shapes(structure):
    """The shapes in a nested structure of shapes, in order."""
    shapes = []
    tree.map_shape_structure(shapes.append, structure)
    return shapes


def cell_config(cell):
    """The cell's config without its own name, trainable flag and dtype (the layer's hold those)."""
    return {k: v for k, v in cell.get_config().items() if k not in ("name", "trainable", "dtype")}


def cell_property(name):
    """A read-only property of a recurrent layer that forwards to `self.cell`."""
    return property(lambda self: getattr(self.cell, name), doc=f"The cell's `{name}`.")


class RNN(Layer):
    """Runs a recurrent cell (or a list of cells, stacked) over the time axis of sequences
    `(batch, time, ...)`.

    A cell is any object with `call(inputs, states)` returning `(output, new_states)` and a
    `state_size` (an int, or a list with one size per state); the built-in cells are
    `SimpleRNNCell`, `GRUCell` and `LSTMCell`. The states start at zeros (or at
    `initial_state=` passed to the call); a `mask` keeps the previous states (and output) at the
    masked steps. The output is the last step's `(batch, output_size)`, or every step's
    `(batch, time, output_size)` with `return_sequences`.

    Args:
        cell: a cell, or a list of cells run as a `StackedRNNCells`.
        return_sequences: bool, return the output of every step instead of the last one
            (default False).
        return_state: bool, also return the final states: `[output, *states]` (default False).
        go_backwards: bool, run over the sequence in reverse (the output is not reversed back).
        stateful: bool, keep the final states of a batch as the initial states of the next
            (fixed batch size; `reset_states()` clears them).
        unroll: bool, unroll the loop in Python instead of a backend loop (short sequences).
        zero_output_for_mask: bool, give zeros as the output of masked steps instead of the
            previous step's output (default False).
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: `cell` has no `call` method or no `state_size`; on a call, an input of rank
            below 3, or a stateful layer without a fixed batch size.

    Examples:
        >>> cell = tripod.layers.SimpleRNNCell(  # a running sum: h_t = x_t + h_(t-1)
        ...     1, activation=None, kernel_initializer="ones", recurrent_initializer="ones"
        ... )
        >>> rnn = tripod.layers.RNN(cell, return_sequences=True)
        >>> print(tripod.ops.convert_to_numpy(rnn(np.array([[[1.0], [2.0], [3.0]]]))).ravel())
        [1. 3. 6.]
        >>> cells = [tripod.layers.LSTMCell(8), tripod.layers.LSTMCell(4)]
        >>> output, *states = tripod.layers.RNN(cells, return_state=True)(np.zeros((2, 5, 3)))
        >>> tuple(output.shape), len(states)
        ((2, 4), 2)
    """

    # Stateful states are not weights: Keras 3 neither tracks nor saves them.
    _UNTRACKED = Layer._UNTRACKED | {"states", "_step_spec"}

    def __init__(
        self,
        cell,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        unroll=False,
        zero_output_for_mask=False,
        **kwargs,
    ):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        super().__init__(**kwargs)
        if not callable(getattr(cell, "call", None)) or not hasattr(cell, "state_size"):
            raise ValueError(
                f"{type(self).__name__} '{self.name}': cell must have a `call(inputs, states)` "
                f"method and a `state_size` attribute, received {cell!r}."
            )
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = bool(stateful)
        self.unroll = bool(unroll)
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.supports_masking = True
        self.input_spec = InputSpec(min_ndim=3)
        self.states = None
        self._cell_takes_training = "training" in inspect.signature(cell.call).parameters
        self._step_spec = None

    @property
    def state_size(self):
        return self.cell.state_size

    def build(self, input_shape):
        """Build the cell on one step's input shape (a structure of them for nested inputs)."""
        short = [shape for shape in _flat_shapes(input_shape) if len(shape) < 3]
        if short:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': expected inputs of shape (batch, time, "
                f"features...), received shape {short[0]}."
            )
        step_shape = tree.map_shape_structure(lambda shape: (shape[0],) + shape[2:], input_shape)
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build_from_config({"input_shape": step_shape})
        if self._traces_output_structure(input_shape):
            self._step_spec = self._one_step_spec(step_shape)
        self.built = True

    def _traces_output_structure(self, input_shape):
        """Whether one step's output structure must come from tracing the cell: its
        `output_size` is not one int (nested or multi-dimensional outputs), or is missing while
        the inputs are nested, and it gives no `output_like` of its own."""
        size = getattr(self.cell, "output_size", None)
        if isinstance(size, int) or hasattr(self.cell, "output_like"):
            return False
        return size is not None or len(_flat_shapes(input_shape)) > 1

    def _one_step_spec(self, step_shape):
        """(output, new states) of one cell step as KerasTensors, traced once at build."""
        inputs = tree.map_shape_structure(
            lambda shape: KerasTensor((None,) + shape[1:], self.compute_dtype), step_shape
        )
        states = tree.map_structure(
            lambda state: KerasTensor((None,) + tuple(state.shape[1:]), ops.dtype(state)),
            self.get_initial_state(1),
        )
        kwargs = {"training": False} if self._cell_takes_training else {}
        return ops.compute_output_spec(self.cell.call, inputs, states, **kwargs)

    # -- states ----------------------------------------------------------------------------------
    def get_initial_state(self, batch_size):
        """Zero states for a batch of `batch_size` sequences, structured as the cell wants."""
        dtype = self.compute_dtype
        if hasattr(self.cell, "get_initial_state"):
            return state_list(self.cell.get_initial_state(batch_size))
        return state_list(
            tree.map_structure(
                lambda size: ops.zeros((batch_size, size), dtype=dtype), self._state_structure()
            )
        )

    def _state_structure(self):
        """The cell's state sizes as the list structure its `call` takes and returns."""
        size = self.cell.state_size
        if isinstance(self.cell, StackedRNNCells):
            return [list(s) if isinstance(s, (list, tuple)) else [s] for s in size]
        return list(size) if isinstance(size, (list, tuple)) else [size]

    def _stateful_states(self, batch_size):
        """The held states of a stateful layer (created as zeros on first use)."""
        if self.states is None:
            if not isinstance(batch_size, int):
                raise ValueError(
                    f"{type(self).__name__} '{self.name}': a stateful RNN needs a fixed batch "
                    "size; "
                    "give the input a static batch dimension (e.g. `Input(batch_shape=...)`)."
                )
            self.states = [
                ops.Variable(
                    initializers.Zeros(),
                    shape=tuple(s.shape),
                    dtype=ops.dtype(s),
                    trainable=False,
                    name="rnn_state",
                    path=f"{self.name}/rnn_state",
                )
                for s in tree.flatten(self.get_initial_state(batch_size))
            ]
        return tree.pack_sequence_as(
            self._initial_structure(batch_size), [v.value for v in self.states]
        )

    def reset_state(self, states=None):
        """Set a stateful layer's held states to zeros, or to the given arrays."""
        if not self.stateful:
            raise AttributeError(
                f"{type(self).__name__} '{self.name}' is not stateful; it holds no states to reset."
            )
        if self.states is None:
            return
        values = (
            tree.flatten(states)
            if states is not None
            else [ops.zeros_like(v.value) for v in self.states]
        )
        if len(values) != len(self.states):
            raise ValueError(
                f"{type(self).__name__} '{self.name}': expected {len(self.states)} states, "
                f"received {len(values)}."
            )
        for variable, value in zip(self.states, values):
            variable.assign(value)

    reset_states = reset_state

    # -- calling ---------------------------------------------------------------------------------
    def call(self, sequences, initial_state=None, mask=None, training=False):
        shape = ops.shape(tree.flatten(sequences)[0])
        if initial_state is not None:
            initial_state = tree.pack_sequence_as(
                self._initial_structure(shape[0]), tree.flatten(initial_state)
            )
        elif self.stateful:
            initial_state = self._stateful_states(shape[0])
        else:
            initial_state = self.get_initial_state(shape[0])
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        last, outputs, states = self._loop(sequences, initial_state, mask, training)
        if self.stateful:
            for variable, value in zip(self.states, tree.flatten(states)):
                variable.assign(value)
        output = outputs if self.return_sequences else last
        if self.return_state:
            return [output] + list(states)
        return output

    def _initial_structure(self, batch_size):
        """A structure shaped like the states, to pack a flat list of states into."""
        if hasattr(self.cell, "get_initial_state"):
            return self.get_initial_state(batch_size)
        return self._state_structure()

    def _loop(self, sequences, states, mask, training):
        """(last output, all outputs (batch, time, ...), final states) of the cell over time."""
        steps = tree.map_structure(lambda x: ops.moveaxis(x, 1, 0), sequences)
        if mask is not None:
            mask = ops.moveaxis(ops.cast(mask, "bool"), 1, 0)
        if self.go_backwards:
            steps = tree.map_structure(lambda x: ops.flip(x, axis=0), steps)
            mask = None if mask is None else ops.flip(mask, axis=0)
        primes = training and isinstance(self.cell, (DropoutRNNCell, StackedRNNCells))
        output_like = self._output_like(tree.map_structure(lambda x: x[0], steps), states, primes)
        try:
            step = self._step_function(training, mask is not None)
            xs = steps if mask is None else (steps, mask)
            timesteps = tree.flatten(sequences)[0].shape[1]
            unroll = timesteps if self.unroll and isinstance(timesteps, int) else 1
            (states, last), outputs = ops.scan(
                step, (states, tree.map_structure(ops.zeros_like, output_like)), xs, unroll=unroll
            )
        finally:
            if primes:
                self.cell._clear_dropout()
        if self.return_sequences:
            outputs = tree.map_structure(lambda x: ops.moveaxis(x, 0, 1), outputs)
        return last, (outputs if self.return_sequences else None), states

    def _output_like(self, first_step, states, primes):
        """Tensors shaped like one step's output; draws the dropout masks when training."""
        if primes:
            return self.cell._prime_dropout(first_step, states)
        if hasattr(self.cell, "output_like"):
            return self.cell.output_like(states)
        batch = ops.shape(tree.flatten(first_step)[0])[0]
        if self._step_spec is not None:
            return tree.map_structure(
                lambda t: ops.zeros((batch,) + tuple(t.shape[1:]), dtype=t.dtype),
                self._step_spec[0],
            )
        return ops.zeros((batch, self._output_size()), dtype=self.compute_dtype)

    def _output_size(self):
        """The cell's `output_size`, else (as Keras) the size of its first state."""
        return getattr(self.cell, "output_size", None) or tree.flatten(self._state_structure())[0]

    def _step_function(self, training, masked):
        """The scan body: one cell step; masked steps keep the previous states (and output)."""
        cell_call = self.cell.call
        kwargs = {"training": training} if self._cell_takes_training else {}
        zero_output = self.zero_output_for_mask

        def step(carry, xs):
            states, previous = carry
            x, keep = xs if masked else (xs, None)
            output, new_states = cell_call(x, states, **kwargs)
            new_states = state_list(new_states)
            if keep is not None:

                def kept(new, old):
                    return ops.where(_expand_mask(keep, len(new.shape)), new, old)

                new_states = tree.map_structure(kept, new_states, states)
                fallback = tree.map_structure(ops.zeros_like, output) if zero_output else previous
                output = tree.map_structure(kept, output, fallback)
            return (new_states, output), output

        return step

    def compute_mask(self, inputs, mask):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(self._state_structure())
        return output_mask

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, time = _flat_shapes(sequences_shape)[0][:2]
        if self._step_spec is not None:
            return self._traced_output_shape(batch, time)
        size = self._output_size()
        output_shape = (batch, time, size) if self.return_sequences else (batch, size)
        if not self.return_state:
            return output_shape
        state_shapes = tree.map_structure(lambda size: (batch, size), self._state_structure())
        return [output_shape] + list(state_shapes)

    def _traced_output_shape(self, batch, time):
        """`compute_output_shape` from the output and states one cell step was traced to give."""
        lead = (batch, time) if self.return_sequences else (batch,)
        output, states = self._step_spec
        output_shape = tree.map_structure(lambda t: lead + tuple(t.shape[1:]), output)
        if not self.return_state:
            return output_shape
        return [output_shape] + [
            tree.map_structure(lambda t: (batch,) + tuple(t.shape[1:]), state)
            for state in state_list(states)
        ]

    def get_config(self):
        config = {
            **super().get_config(),
            "return_sequences": self.return_sequences,
            "return_state": self.return_state,
            "go_backwards": self.go_backwards,
            "stateful": self.stateful,
            "unroll": self.unroll,
            "zero_output_for_mask": self.zero_output_for_mask,
        }
        if type(self) is RNN:
            config["cell"] = serialization.serialize_keras_object(self.cell)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        if "cell" in config:
            config["cell"] = serialization.deserialize_keras_object(config["cell"], custom_objects)
        return super().from_config(config)


class _OwnCellRNN(RNN):
    """An RNN layer that makes its own cell from its arguments (SimpleRNN, GRU, LSTM, ConvLSTM):
    the cell shares the layer's dtype and trainable flag, and the layer's config and attributes
    show the cell's arguments as the layer's own."""

    @staticmethod
    def _cell_kwargs(layer_kwargs, name):
        """The cell's name, and its dtype and trainable flag from the layer's keyword arguments."""
        return {
            "dtype": layer_kwargs.get("dtype"),
            "trainable": layer_kwargs.get("trainable", True),
            "name": name,
        }

    activation = cell_property("activation")
    use_bias = cell_property("use_bias")
    dropout = cell_property("dropout")
    recurrent_dropout = cell_property("recurrent_dropout")

    def get_config(self):
        return {
            **super().get_config(),
            **cell_config(self.cell),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
        }

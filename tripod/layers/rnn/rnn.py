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


def cell_config(cell):
    """The cell's config without its own name, trainable flag and dtype (the layer's hold those)."""
    return {k: v for k, v in cell.get_config().items() if k not in ("name", "trainable", "dtype")}


def cell_property(name):
    """A read-only property of a recurrent layer that forwards to `self.cell`."""
    return property(lambda self: getattr(self.cell, name), doc=f"The cell's `{name}`.")


class RNN(Layer):
    """Runs a recurrent cell (or a list of cells, stacked) over sequences (batch, time, ...)."""

    # Stateful states are not weights: Keras 3 neither tracks nor saves them.
    _UNTRACKED = Layer._UNTRACKED | {"states"}

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, **kwargs):  # fmt: skip
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

    @property
    def state_size(self):
        return self.cell.state_size

    def build(self, input_shape):
        input_shape = tuple(input_shape)
        if len(input_shape) < 3:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': expected inputs of shape (batch, time, "
                f"features...), received shape {input_shape}."
            )
        if isinstance(self.cell, Layer) and not self.cell.built:
            self.cell.build_from_config({"input_shape": (input_shape[0],) + input_shape[2:]})
        self.built = True

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
                    f"{type(self).__name__} '{self.name}': a stateful RNN needs a fixed batch size; "
                    "give the input a static batch dimension (e.g. `Input(batch_shape=...)`)."
                )
            self.states = [
                ops.Variable(initializers.Zeros(), shape=tuple(s.shape), dtype=ops.dtype(s), trainable=False,
                             name="rnn_state", path=f"{self.name}/rnn_state")
                for s in tree.flatten(self.get_initial_state(batch_size))
            ]  # fmt: skip
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
                f"{type(self).__name__} '{self.name}': expected {len(self.states)} states, received {len(values)}."
            )
        for variable, value in zip(self.states, values):
            variable.assign(value)

    reset_states = reset_state

    # -- calling ---------------------------------------------------------------------------------
    def call(self, sequences, initial_state=None, mask=None, training=False):
        shape = ops.shape(sequences)
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
        steps = ops.moveaxis(sequences, 1, 0)
        if mask is not None:
            mask = ops.moveaxis(ops.cast(mask, "bool"), 1, 0)
        if self.go_backwards:
            steps = ops.flip(steps, axis=0)
            mask = None if mask is None else ops.flip(mask, axis=0)
        primes = training and isinstance(self.cell, (DropoutRNNCell, StackedRNNCells))
        output_like = self._output_like(steps[0], states, primes)
        try:
            step = self._step_function(training, mask is not None)
            xs = steps if mask is None else (steps, mask)
            timesteps = sequences.shape[1]
            unroll = timesteps if self.unroll and isinstance(timesteps, int) else 1
            (states, last), outputs = ops.scan(
                step, (states, ops.zeros_like(output_like)), xs, unroll=unroll
            )
        finally:
            if primes:
                self.cell._clear_dropout()
        return last, (ops.moveaxis(outputs, 0, 1) if self.return_sequences else None), states

    def _output_like(self, first_step, states, primes):
        """A tensor shaped like one step's output; draws the dropout masks when training."""
        if primes:
            return self.cell._prime_dropout(first_step, states)
        if hasattr(self.cell, "output_like"):
            return self.cell.output_like(states)
        return ops.zeros((ops.shape(first_step)[0], self._output_size()), dtype=self.compute_dtype)

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
                new_states = tree.map_structure(
                    lambda new, old: ops.where(_expand_mask(keep, len(new.shape)), new, old), new_states, states
                )  # fmt: skip
                fallback = ops.zeros_like(output) if zero_output else previous
                output = ops.where(_expand_mask(keep, len(output.shape)), output, fallback)
            return (new_states, output), output

        return step

    def compute_mask(self, inputs, previous_mask):
        if isinstance(previous_mask, (list, tuple)):
            previous_mask = previous_mask[0]
        output_mask = previous_mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(self._state_structure())
        return output_mask

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch, time = sequences_shape[0], sequences_shape[1]
        size = self._output_size()
        output_shape = (batch, time, size) if self.return_sequences else (batch, size)
        if not self.return_state:
            return output_shape
        state_shapes = tree.map_structure(lambda size: (batch, size), self._state_structure())
        return [output_shape] + list(state_shapes)

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
            **super().get_config(), **cell_config(self.cell),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
        }  # fmt: skip

"""`ConvLSTM1D/2D/3D`: an LSTM whose input and recurrent projections are convolutions.

Inputs are (batch, time, spatial..., channels) (or channels first). The input convolution uses
the layer's strides, padding and dilation; the recurrent one keeps the state's spatial shape
("same" padding, stride 1). Gates are in Keras's order i, f, c, o along the channel axis.
"""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.backends.common.seed import SeedGenerator
from tripod.layers import activations, constraints, initializers, regularizers
from tripod.layers.convolution import _arguments as args
from tripod.layers.layer import Layer
from tripod.layers.rnn.dropout_rnn_cell import DropoutRNNCell, check_rate
from tripod.layers.rnn.lstm import UnitForgetBias
from tripod.layers.rnn.rnn import RNN, cell_config

ops = active()


class _ConvLSTMCell(DropoutRNNCell, Layer):
    """One ConvLSTM step over a `rank`-D input: states are [h, c] feature maps."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 seed=None, **kwargs):  # fmt: skip
        super().__init__(**kwargs)
        self.rank = rank
        self.filters = args.positive_int_arg(self, filters, "filters")
        self.kernel_size = args.tuple_arg(self, kernel_size, rank, "kernel_size")
        self.strides = args.tuple_arg(self, strides, rank, "strides")
        self.padding = args.padding_arg(self, padding, ("valid", "same"))
        self.data_format = args.data_format_arg(self, data_format)
        self.dilation_rate = args.tuple_arg(self, dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = check_rate(self, "dropout", dropout)
        self.recurrent_dropout = check_rate(self, "recurrent_dropout", recurrent_dropout)
        self.seed = seed
        self.seed_generator = SeedGenerator(seed=seed)
        self.state_size = -1  # the states are feature maps: see `state_shape`
        self._channel_axis = -1 if self.data_format == "channels_last" else 1

    def state_shape_for(self, input_shape):
        """The shape of h and c (without batch) for step inputs of `input_shape` (with batch)."""
        args.check_rank(self, input_shape, self.rank)
        spatial = conv_shapes.spatial_shape(input_shape, self.data_format)
        out = tuple(
            None if n is None else conv_shapes.conv_output_length(n, k, s, self.padding, d)
            for n, k, s, d in zip(spatial, self.kernel_size, self.strides, self.dilation_rate)
        )  # fmt: skip
        return (
            out + (self.filters,) if self.data_format == "channels_last" else (self.filters,) + out
        )

    def build(self, input_shape):
        channels = args.known_channels(self, input_shape, self.data_format)
        self.state_shape = self.state_shape_for(input_shape)
        f = self.filters
        self.kernel = self.add_weight(
            shape=self.kernel_size + (channels, 4 * f), initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
        )  # fmt: skip
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (f, 4 * f), initializer=self.recurrent_initializer,
            name="recurrent_kernel", regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint,
        )  # fmt: skip
        self.bias = None
        if self.use_bias:
            initializer = (
                UnitForgetBias(self.bias_initializer, f)
                if self.unit_forget_bias
                else self.bias_initializer
            )
            self.bias = self.add_weight(
                shape=(4 * f,), initializer=initializer, name="bias",
                regularizer=self.bias_regularizer, constraint=self.bias_constraint,
            )  # fmt: skip
        bias_shape = (
            (4 * f,) + (1,) * self.rank if self.data_format == "channels_first" else (4 * f,)
        )
        self._bias_shape = bias_shape
        self.built = True

    def get_initial_state(self, batch_size):
        return [
            ops.zeros((batch_size,) + self.state_shape, dtype=self.compute_dtype) for _ in range(2)
        ]

    def call(self, inputs, states, training=False):
        h_previous, c_previous = states[0], states[1]
        x = ops.conv(
            self._masked_inputs(inputs, training), self.kernel.value, strides=self.strides,
            padding=self.padding, data_format=self.data_format, dilation_rate=self.dilation_rate,
        )  # fmt: skip
        if self.bias is not None:
            x = ops.add(x, ops.reshape(self.bias.value, self._bias_shape))
        recurrent = ops.conv(
            self._masked_state(h_previous, training), self.recurrent_kernel.value, strides=1,
            padding="same", data_format=self.data_format,
        )  # fmt: skip
        i, f, c, o = ops.split(ops.add(x, recurrent), 4, axis=self._channel_axis)
        c = ops.add(
            ops.multiply(self.recurrent_activation(f), c_previous),
            ops.multiply(self.recurrent_activation(i), self.activation(c)),
        )
        h = ops.multiply(self.recurrent_activation(o), self.activation(c))
        return h, [h, c]

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            "activation": activations.serialize(self.activation),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "unit_forget_bias": self.unit_forget_bias,
            "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
            "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
            "bias_regularizer": regularizers.serialize(self.bias_regularizer),
            "kernel_constraint": constraints.serialize(self.kernel_constraint),
            "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
            "bias_constraint": constraints.serialize(self.bias_constraint),
            "dropout": self.dropout,
            "recurrent_dropout": self.recurrent_dropout,
            "seed": self.seed,
        }

    @classmethod
    def from_config(cls, config):
        return cls(len(config["kernel_size"]), **config)


class _ConvLSTM(RNN):
    """The ConvLSTM layer of any rank: an `RNN` over a `_ConvLSTMCell`."""

    rank = None

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", unit_forget_bias=True, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, **kwargs):  # fmt: skip
        cell = _ConvLSTMCell(
            self.rank, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
            dilation_rate=dilation_rate, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout, recurrent_dropout=recurrent_dropout, seed=seed,
            dtype=kwargs.get("dtype"), trainable=kwargs.get("trainable", True), name="conv_lstm_cell",
        )  # fmt: skip
        super().__init__(
            cell, return_sequences=return_sequences, return_state=return_state, go_backwards=go_backwards,
            stateful=stateful, activity_regularizer=activity_regularizer, **kwargs,
        )  # fmt: skip

    def build(self, input_shape):
        if len(input_shape) != self.rank + 3:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': expected inputs of rank {self.rank + 3} (batch, time, "
                f"{self.rank} spatial dims, channels), received shape {tuple(input_shape)}."
            )
        super().build(input_shape)

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch = sequences_shape[0]
        shape = self.cell.state_shape_for((batch,) + tuple(sequences_shape[2:]))
        state = (batch,) + shape
        output = (batch, sequences_shape[1]) + shape if self.return_sequences else state
        return [output, state, state] if self.return_state else output

    def compute_mask(self, inputs, previous_mask):
        mask = super().compute_mask(inputs, previous_mask)
        return mask[:1] + [None, None] if self.return_state else mask

    def get_config(self):
        return {
            **super().get_config(), **cell_config(self.cell),
            "activity_regularizer": regularizers.serialize(self.activity_regularizer),
        }  # fmt: skip


class ConvLSTM1D(_ConvLSTM):
    """1D convolutional LSTM over (batch, time, steps, channels)."""

    rank = 1


class ConvLSTM2D(_ConvLSTM):
    """2D convolutional LSTM over (batch, time, rows, cols, channels)."""

    rank = 2


class ConvLSTM3D(_ConvLSTM):
    """3D convolutional LSTM over (batch, time, dim1, dim2, dim3, channels)."""

    rank = 3

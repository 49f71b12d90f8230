"""`ConvLSTM1D/2D/3D`: an LSTM whose input and recurrent projections are convolutions.

Inputs are (batch, time, spatial..., channels) (or channels first). The input convolution uses
the layer's strides, padding and dilation; the recurrent one keeps the state's spatial shape
("same" padding, stride 1). Gates are in Keras's order i, f, c, o along the channel axis.
"""

from tripod.backends import active
from tripod.backends.common import conv as conv_shapes
from tripod.layers import activations
from tripod.layers.convolution import _arguments as args
from tripod.layers.rnn.base_cell import _RecurrentCell
from tripod.layers.rnn.lstm import lstm_bias_initializer, lstm_states
from tripod.layers.rnn.rnn import _OwnCellRNN

ops = active()


class _ConvLSTMCell(_RecurrentCell):
    """One ConvLSTM step over a `rank`-D input: states are [h, c] feature maps."""

    def __init__(
        self,
        rank,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        **kwargs,
    ):
        super().__init__(
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
            dropout=dropout,
            recurrent_dropout=recurrent_dropout,
            seed=seed,
            **kwargs,
        )
        self.rank = rank
        self.filters = args.positive_int_arg(self, filters, "filters")
        self.kernel_size = args.tuple_arg(self, kernel_size, rank, "kernel_size")
        self.strides = args.tuple_arg(self, strides, rank, "strides")
        self.padding = args.padding_arg(self, padding, ("valid", "same"))
        self.data_format = args.data_format_arg(self, data_format)
        self.dilation_rate = args.tuple_arg(self, dilation_rate, rank, "dilation_rate")
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = bool(unit_forget_bias)
        self.state_size = -1  # the states are feature maps: see `state_shape`
        self._channel_axis = -1 if self.data_format == "channels_last" else 1

    def state_shape_for(self, input_shape):
        """The shape of h and c (without batch) for step inputs of `input_shape` (with batch)."""
        args.check_rank(self, input_shape, self.rank)
        spatial = conv_shapes.spatial_shape(input_shape, self.data_format)
        out = tuple(
            None if n is None else conv_shapes.conv_output_length(n, k, s, self.padding, d)
            for n, k, s, d in zip(spatial, self.kernel_size, self.strides, self.dilation_rate)
        )
        return (
            out + (self.filters,) if self.data_format == "channels_last" else (self.filters,) + out
        )

    def build(self, input_shape):
        channels = args.known_channels(self, input_shape, self.data_format)
        self.state_shape = self.state_shape_for(input_shape)
        f = self.filters
        self._add_weights(
            self.kernel_size + (channels, 4 * f),
            self.kernel_size + (f, 4 * f),
            (4 * f,),
            lstm_bias_initializer(self, f),
        )
        self._bias_shape = (4 * f,)
        if self.data_format == "channels_first":  # the bias broadcasts as (4 * filters, 1, ..., 1)
            self._bias_shape += (1,) * self.rank
        self.built = True

    def get_initial_state(self, batch_size):
        return [
            ops.zeros((batch_size,) + self.state_shape, dtype=self.compute_dtype) for _ in range(2)
        ]

    def call(self, inputs, states, training=False):
        h_previous, c_previous = states[0], states[1]
        x = ops.conv(
            self._masked_inputs(inputs, training),
            self.kernel.value,
            strides=self.strides,
            padding=self.padding,
            data_format=self.data_format,
            dilation_rate=self.dilation_rate,
        )
        if self.bias is not None:
            x = ops.add(x, ops.reshape(self.bias.value, self._bias_shape))
        recurrent = ops.conv(
            self._masked_state(h_previous, training),
            self.recurrent_kernel.value,
            strides=1,
            padding="same",
            data_format=self.data_format,
        )
        return lstm_states(self, ops.add(x, recurrent), c_previous, axis=self._channel_axis)

    def get_config(self):
        return {
            **super().get_config(),
            "filters": self.filters,
            "kernel_size": self.kernel_size,
            "strides": self.strides,
            "padding": self.padding,
            "data_format": self.data_format,
            "dilation_rate": self.dilation_rate,
            **self._recurrent_config(),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "unit_forget_bias": self.unit_forget_bias,
        }

    @classmethod
    def from_config(cls, config):
        return cls(len(config["kernel_size"]), **config)


class _ConvLSTM(_OwnCellRNN):
    """The ConvLSTM layer of any rank: an `RNN` over a `_ConvLSTMCell`."""

    rank = None

    def __init__(
        self,
        filters,
        kernel_size,
        strides=1,
        padding="valid",
        data_format=None,
        dilation_rate=1,
        activation="tanh",
        recurrent_activation="sigmoid",
        use_bias=True,
        kernel_initializer="glorot_uniform",
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        unit_forget_bias=True,
        kernel_regularizer=None,
        recurrent_regularizer=None,
        bias_regularizer=None,
        activity_regularizer=None,
        kernel_constraint=None,
        recurrent_constraint=None,
        bias_constraint=None,
        dropout=0.0,
        recurrent_dropout=0.0,
        seed=None,
        return_sequences=False,
        return_state=False,
        go_backwards=False,
        stateful=False,
        **kwargs,
    ):
        cell = _ConvLSTMCell(
            self.rank,
            filters,
            kernel_size,
            strides=strides,
            padding=padding,
            data_format=data_format,
            dilation_rate=dilation_rate,
            activation=activation,
            recurrent_activation=recurrent_activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint,
            dropout=dropout,
            recurrent_dropout=recurrent_dropout,
            seed=seed,
            **self._cell_kwargs(kwargs, "conv_lstm_cell"),
        )
        super().__init__(
            cell,
            return_sequences=return_sequences,
            return_state=return_state,
            go_backwards=go_backwards,
            stateful=stateful,
            activity_regularizer=activity_regularizer,
            **kwargs,
        )

    def build(self, input_shape):
        if len(input_shape) != self.rank + 3:
            raise ValueError(
                f"{type(self).__name__} '{self.name}': expected inputs of rank {self.rank + 3} "
                "(batch, time, "
                f"{self.rank} spatial dims, channels), received shape {tuple(input_shape)}."
            )
        super().build(input_shape)

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        batch = sequences_shape[0]
        shape = self.cell.state_shape_for((batch,) + tuple(sequences_shape[2:]))
        state = (batch,) + shape
        output = (batch, sequences_shape[1]) + shape if self.return_sequences else state
        return [output, state, state] if self.return_state else output

    def compute_mask(self, inputs, mask):
        mask = super().compute_mask(inputs, mask)
        return mask[:1] + [None, None] if self.return_state else mask


class ConvLSTM1D(_ConvLSTM):
    """An LSTM over sequences of 1D feature maps `(batch, time, steps, channels)`, whose input
    and recurrent projections are 1D convolutions.

    The states h and c are feature maps `(batch, new_steps, filters)`; the output is the last h,
    or every step's with `return_sequences`.

    Args:
        filters: int > 0, the number of channels of the states and the output.
        kernel_size: int > 0, the window of the input and recurrent
            convolutions.
        strides: int > 0, the input convolution's strides (default 1).
        padding: "valid" (default) or "same", the input convolution's padding (the recurrent
            one is always "same", stride 1).
        data_format: "channels_last" (batch, time, steps, channels) or "channels_first"
            (batch, time, channels, steps); default `tripod.config.image_data_format()`.
        dilation_rate: int > 0, the input convolution's dilation (default 1).
        activation: activation of the candidate and of the new cell state in the output;
            default "tanh".
        recurrent_activation: activation of the input, forget and output gates; default
            "sigmoid".
        use_bias: bool, add a bias per gate channel (default True).
        kernel_initializer: initializer of the input kernel; default "glorot_uniform".
        recurrent_initializer: initializer of the recurrent kernel; default "orthogonal".
        bias_initializer: initializer of the bias; default "zeros".
        unit_forget_bias: bool, start the forget gate's bias at one (default True).
        kernel_regularizer: regularizer of the input kernel.
        recurrent_regularizer: regularizer of the recurrent kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint of the input kernel.
        recurrent_constraint: constraint of the recurrent kernel.
        bias_constraint: constraint of the bias.
        dropout: float in [0, 1], the fraction of input entries dropped in training (one mask
            per sequence).
        recurrent_dropout: float in [0, 1], the fraction of state entries dropped in training.
        seed: int, seed of the dropout masks.
        return_sequences: bool, return the output of every step instead of the last one
            (default False).
        return_state: bool, also return the final states: `[output, h, c]` (default False).
        go_backwards: bool, run over the sequence in reverse (the output is not reversed back).
        stateful: bool, keep the final states of a batch as the initial states of the next
            (fixed batch size; `reset_states()` clears them).
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`),
            named in the message; on the first call, an input not of rank 4.

    Examples:
        >>> x = np.zeros((2, 3, 10, 4))  # 2 sequences of 3 steps, each a 10-long 4-channel map
        >>> tuple(tripod.layers.ConvLSTM1D(6, 3)(x).shape)
        (2, 8, 6)
        >>> layer = tripod.layers.ConvLSTM1D(6, 3, padding="same", return_sequences=True)
        >>> tuple(layer(x).shape)
        (2, 3, 10, 6)
    """

    rank = 1


class ConvLSTM2D(_ConvLSTM):
    """An LSTM over sequences of images `(batch, time, rows, cols, channels)`, whose input and
    recurrent projections are 2D convolutions.

    At each step, `conv(x, kernel) + conv(h, recurrent_kernel) + bias` gives the input, forget
    and output gates and the candidate (4 blocks of `filters` channels), which update the
    states h and c as in `LSTMCell`. The states are feature maps
    `(batch, new_rows, new_cols, filters)`; the output is the last h, or every step's with
    `return_sequences`.

    Args:
        filters: int > 0, the number of channels of the states and the output.
        kernel_size: int > 0 or tuple of 2 ints, the window of the input and recurrent
            convolutions.
        strides: int > 0 or tuple of 2 ints, the input convolution's strides (default 1).
        padding: "valid" (default) or "same", the input convolution's padding (the recurrent
            one is always "same", stride 1).
        data_format: "channels_last" (batch, time, rows, cols, channels) or
            "channels_first" (batch, time, channels, rows, cols); default
            `tripod.config.image_data_format()`.
        dilation_rate: int > 0 or tuple of 2 ints, the input convolution's dilation (default 1).
        activation: activation of the candidate and of the new cell state in the output;
            default "tanh".
        recurrent_activation: activation of the input, forget and output gates; default
            "sigmoid".
        use_bias: bool, add a bias per gate channel (default True).
        kernel_initializer: initializer of the input kernel; default "glorot_uniform".
        recurrent_initializer: initializer of the recurrent kernel; default "orthogonal".
        bias_initializer: initializer of the bias; default "zeros".
        unit_forget_bias: bool, start the forget gate's bias at one (default True).
        kernel_regularizer: regularizer of the input kernel.
        recurrent_regularizer: regularizer of the recurrent kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint of the input kernel.
        recurrent_constraint: constraint of the recurrent kernel.
        bias_constraint: constraint of the bias.
        dropout: float in [0, 1], the fraction of input entries dropped in training (one mask
            per sequence).
        recurrent_dropout: float in [0, 1], the fraction of state entries dropped in training.
        seed: int, seed of the dropout masks.
        return_sequences: bool, return the output of every step instead of the last one
            (default False).
        return_state: bool, also return the final states: `[output, h, c]` (default False).
        go_backwards: bool, run over the sequence in reverse (the output is not reversed back).
        stateful: bool, keep the final states of a batch as the initial states of the next
            (fixed batch size; `reset_states()` clears them).
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`),
            named in the message; on the first call, an input not of rank 5.

    Examples:
        >>> x = np.zeros((1, 3, 5, 5, 2))  # 1 sequence of 3 images of 5x5 pixels, 2 channels
        >>> layer = tripod.layers.ConvLSTM2D(4, 3, padding="same")
        >>> tuple(layer(x).shape)
        (1, 5, 5, 4)
        >>> tuple(layer.cell.kernel.shape), tuple(layer.cell.recurrent_kernel.shape)
        ((3, 3, 2, 16), (3, 3, 4, 16))
        >>> tuple(tripod.layers.ConvLSTM2D(4, 3, return_sequences=True)(x).shape)
        (1, 3, 3, 3, 4)
    """

    rank = 2


class ConvLSTM3D(_ConvLSTM):
    """An LSTM over sequences of volumes `(batch, time, dim1, dim2, dim3, channels)`, whose
    input and recurrent projections are 3D convolutions.

    The states h and c are feature maps `(batch, new_dim1, new_dim2, new_dim3, filters)`; the
    output is the last h, or every step's with `return_sequences`.

    Args:
        filters: int > 0, the number of channels of the states and the output.
        kernel_size: int > 0 or tuple of 3 ints, the window of the input and recurrent
            convolutions.
        strides: int > 0 or tuple of 3 ints, the input convolution's strides (default 1).
        padding: "valid" (default) or "same", the input convolution's padding (the recurrent
            one is always "same", stride 1).
        data_format: "channels_last" (batch, time, dim1, dim2, dim3, channels) or
            "channels_first" (batch, time, channels, dim1, dim2, dim3); default
            `tripod.config.image_data_format()`.
        dilation_rate: int > 0 or tuple of 3 ints, the input convolution's dilation (default 1).
        activation: activation of the candidate and of the new cell state in the output;
            default "tanh".
        recurrent_activation: activation of the input, forget and output gates; default
            "sigmoid".
        use_bias: bool, add a bias per gate channel (default True).
        kernel_initializer: initializer of the input kernel; default "glorot_uniform".
        recurrent_initializer: initializer of the recurrent kernel; default "orthogonal".
        bias_initializer: initializer of the bias; default "zeros".
        unit_forget_bias: bool, start the forget gate's bias at one (default True).
        kernel_regularizer: regularizer of the input kernel.
        recurrent_regularizer: regularizer of the recurrent kernel.
        bias_regularizer: regularizer of the bias.
        activity_regularizer: regularizer of the output.
        kernel_constraint: constraint of the input kernel.
        recurrent_constraint: constraint of the recurrent kernel.
        bias_constraint: constraint of the bias.
        dropout: float in [0, 1], the fraction of input entries dropped in training (one mask
            per sequence).
        recurrent_dropout: float in [0, 1], the fraction of state entries dropped in training.
        seed: int, seed of the dropout masks.
        return_sequences: bool, return the output of every step instead of the last one
            (default False).
        return_state: bool, also return the final states: `[output, h, c]` (default False).
        go_backwards: bool, run over the sequence in reverse (the output is not reversed back).
        stateful: bool, keep the final states of a batch as the initial states of the next
            (fixed batch size; `reset_states()` clears them).
        **kwargs: the `Layer` arguments (name, dtype, ...).

    Raises:
        ValueError: an invalid argument (e.g. `filters` not positive, an unknown `padding`),
            named in the message; on the first call, an input not of rank 6.

    Examples:
        >>> x = np.zeros((1, 2, 3, 3, 3, 1))  # 1 sequence of 2 volumes of 3x3x3, 1 channel
        >>> output, h, c = tripod.layers.ConvLSTM3D(2, 2, return_state=True)(x)
        >>> tuple(output.shape), tuple(c.shape)
        ((1, 2, 2, 2, 2), (1, 2, 2, 2, 2))
    """

    rank = 3

"""Neural-network ops that score or encode: losses, class encodings, CTC and PSNR."""


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy between `target` and probabilities or logits.

    For a label `t` and a predicted probability `p` of the positive class, the loss is
    `-(t * log(p) + (1 - t) * log(1 - p))`. Nothing is averaged:
    `tripod.losses.BinaryCrossentropy` adds the reduction.

    Args:
        target: tensor of labels in [0, 1] (usually 0 or 1; soft labels are allowed).
        output: tensor of `target`'s shape: predicted probabilities in [0, 1], or logits (any
            real values) when `from_logits` is True.
        from_logits: bool, default False. False: `output` holds probabilities, clipped to
            `[epsilon, 1 - epsilon]` (`tripod.config.epsilon()`, 1e-7 by default) so that the
            logarithms stay finite. True: `output` holds logits, turned into probabilities by a
            sigmoid inside a formula that stays exact for large logits; prefer it when the
            model's last layer has no activation.

    Returns:
        A tensor of `target`'s shape holding the loss of each element, in the promoted float
        dtype of `target` and `output` (integers give floatx).

    Raises:
        ValueError: `target` and `output` differ in shape.

    Examples:
        >>> target = np.array([1.0, 0.0], "float32")
        >>> output = np.array([0.9, 0.2], "float32")
        >>> loss = tripod.ops.binary_crossentropy(target, output)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # -log(0.9), -log(0.8)
        [0.1054 0.2231]
        >>> logits = np.array([0.0, 0.0], "float32")  # probability 0.5 either way
        >>> loss = tripod.ops.binary_crossentropy(target, logits, from_logits=True)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))
        [0.6931 0.6931]
    """


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between one-hot/soft `target` and `output` over class `axis`.

    For each example, `-sum(target * log(probabilities))` over the class axis: with a one-hot
    target, minus the log of the probability given to the true class. Nothing is averaged over
    the examples: `tripod.losses.CategoricalCrossentropy` adds the reduction.

    Args:
        target: tensor of class probabilities per example: one-hot rows, or soft labels
            summing to 1 along `axis`.
        output: tensor of `target`'s shape: predicted probabilities along `axis`, or logits
            when `from_logits` is True.
        from_logits: bool, default False. False: each row of `output` is rescaled to sum to 1
            and clipped to `[epsilon, 1 - epsilon]` (`tripod.config.epsilon()`) before its
            logarithm. True: `output` holds logits, normalized by a log-softmax, which is exact
            for large logits; prefer it when the model's last layer has no softmax.
        axis: int, the class axis; default -1, the last.

    Returns:
        A tensor of `output`'s shape without `axis` (one loss per example), in the promoted
        float dtype of `target` and `output`.

    Raises:
        ValueError: `target` and `output` differ in shape.

    Examples:
        >>> target = np.array([[0.0, 1.0, 0.0]], "float32")
        >>> probabilities = np.array([[0.25, 0.5, 0.25]], "float32")
        >>> loss = tripod.ops.categorical_crossentropy(target, probabilities)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # -log(0.5)
        [0.6931]
        >>> logits = np.zeros((1, 3), "float32")  # a uniform guess over 3 classes
        >>> loss = tripod.ops.categorical_crossentropy(target, logits, from_logits=True)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # log(3)
        [1.0986]
    """


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    """Decoded label sequences and their scores from CTC logits (greedy or beam search)."""


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """The CTC loss per batch item, for padded `target` labels and logits `output`."""


def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Multi-hot encoding: per row of integer `inputs`, 1 at each class index present."""


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """One-hot encoding of integer `x` with `num_classes` classes placed on `axis`.

    Each index `i` becomes a vector of `num_classes` zeros with a 1 at position `i`.

    Args:
        x: int tensor of class indices, of any shape; float and bool labels are cast to int32.
            An index outside `[0, num_classes)` gives a vector of zeros.
        num_classes: int, the length of each encoding.
        axis: int, the position of the new class axis in the result; default -1, the last.
        dtype: the result's dtype; default None, floatx (float32 unless changed).
        sparse: bool, default False. True asks for a sparse tensor, which only the tensorflow
            backend has (`tf.SparseTensor`); the others raise a ValueError.

    Returns:
        A tensor of `dtype`, of `x`'s shape with an axis of size `num_classes` inserted at
        `axis`.

    Examples:
        >>> print(tripod.ops.convert_to_numpy(tripod.ops.one_hot(np.array([0, 2]), 3)))
        [[1. 0. 0.]
         [0. 0. 1.]]
        >>> y = tripod.ops.one_hot(np.array([0, 2]), 3, axis=0, dtype="int32")
        >>> print(tripod.ops.convert_to_numpy(y))
        [[1 0]
         [0 0]
         [0 1]]
    """


def psnr(x1, x2, max_val):
    """The peak signal-to-noise ratio in dB between `x1` and `x2` given the peak `max_val`."""


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy between integer class `target` and `output` over `axis`.

    The same loss as `categorical_crossentropy` with the target given as class indices instead
    of one-hot rows: for each example, minus the log of the probability given to its class.

    Args:
        target: int tensor of class indices, of `output`'s shape without `axis` (a size-1 axis
            in its place is accepted and dropped); float labels are cast to int32. Indices
            must lie in `[0, output.shape[axis])`: one outside matches no class and gives a
            loss of 0 rather than an error.
        output: tensor of predicted probabilities along `axis`, or logits when `from_logits`
            is True.
        from_logits: bool, default False: as in `categorical_crossentropy` (probabilities are
            rescaled and clipped; logits go through a log-softmax).
        axis: int, the class axis of `output`; default -1, the last.

    Returns:
        A tensor of `output`'s shape without `axis` (one loss per example), in `output`'s float
        dtype.

    Raises:
        ValueError: `target`'s shape is not `output`'s without `axis`.

    Examples:
        >>> probabilities = np.array([[0.25, 0.5, 0.25], [0.8, 0.1, 0.1]], "float32")
        >>> target = np.array([1, 0], "int32")
        >>> loss = tripod.ops.sparse_categorical_crossentropy(target, probabilities)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))  # -log(0.5), -log(0.8)
        [0.6931 0.2231]
        >>> logits = np.array([[2.0, 0.0, 0.0]], "float32")
        >>> loss = tripod.ops.sparse_categorical_crossentropy([0], logits, from_logits=True)
        >>> print(np.round(tripod.ops.convert_to_numpy(loss), 4))
        [0.2395]
    """

"""tf.data pipelines for tripod's dataset builders (`format="tf"`), built as Keras 3 builds
them: files are read and decoded by TensorFlow inside parallel `map`s, shuffled with a seeded
buffer, batched and prefetched.

tripod's data package (`tripod.data`) decides what goes in (paths, encoded labels, window
positions) and imports this module only when a "tf" data set is asked for; nothing here
imports the rest of tripod.
"""

import tensorflow as tf

AUTOTUNE = tf.data.AUTOTUNE


def _shuffle_buffer(batch_size):
    return batch_size * 8 if batch_size else 1024


def _finish(dataset, batch_size, shuffle, seed, padded=False):
    """`dataset` shuffled (a seeded buffer, reshuffled each epoch), batched and prefetched."""
    if shuffle:
        dataset = dataset.shuffle(_shuffle_buffer(batch_size), seed=seed)
    if batch_size is not None:
        dataset = dataset.padded_batch(batch_size) if padded else dataset.batch(batch_size)
    return dataset.prefetch(AUTOTUNE)


def files_dataset(paths, labels, load, shuffle, seed, batch_size, padded=False):
    """`load(path)` for each path (with its row of `labels` when not None)."""
    dataset = tf.data.Dataset.from_tensor_slices(paths)
    if labels is not None:
        dataset = tf.data.Dataset.zip((dataset, tf.data.Dataset.from_tensor_slices(labels)))
    if shuffle:  # before decoding: the buffer holds paths, not images
        dataset = dataset.shuffle(_shuffle_buffer(batch_size), seed=seed)
    if labels is None:
        dataset = dataset.map(load, num_parallel_calls=AUTOTUNE)
    else:
        dataset = dataset.map(lambda path, label: (load(path), label), num_parallel_calls=AUTOTUNE)
    return _finish(dataset, batch_size, False, seed, padded)


# -- images ---------------------------------------------------------------------------------
def _crop_to_aspect(image, height, width):
    """The largest centred window of `image` (HWC) with the aspect ratio height:width."""
    shape = tf.shape(image)
    in_h, in_w = shape[0], shape[1]
    crop_h = tf.cast(tf.cast(in_w * height, tf.float32) / width, tf.int32)
    crop_w = tf.cast(tf.cast(in_h * width, tf.float32) / height, tf.int32)
    crop_h = tf.maximum(tf.minimum(in_h, crop_h), 1)
    crop_w = tf.maximum(tf.minimum(in_w, crop_w), 1)
    top = tf.cast(tf.cast(in_h - crop_h, tf.float32) / 2, tf.int32)
    left = tf.cast(tf.cast(in_w - crop_w, tf.float32) / 2, tf.int32)
    return image[top : top + crop_h, left : left + crop_w]


def image_loader(image_size, num_channels, interpolation, data_format, crop, pad):
    """path -> float32 image of `image_size`, decoded with `num_channels` channels (gif: the
    first frame), resized after a centre crop (`crop`) or resized into a zero pad (`pad`) to
    keep its aspect ratio."""
    height, width = image_size

    def load(path):
        image = tf.image.decode_image(
            tf.io.read_file(path), channels=num_channels, expand_animations=False
        )
        if crop:
            image = _crop_to_aspect(image, height, width)
        if pad:
            image = tf.image.resize_with_pad(image, height, width, method=interpolation)
        else:
            image = tf.image.resize(image, (height, width), method=interpolation)
        image = tf.cast(image, tf.float32)
        if data_format == "channels_first":
            image = tf.transpose(image, (2, 0, 1))
            image.set_shape((num_channels, height, width))
        else:
            image.set_shape((height, width, num_channels))
        return image

    return load


# -- text and audio -------------------------------------------------------------------------
def text_loader(max_length):
    """path -> the file's contents as a tf.string (its first `max_length` bytes if given)."""

    def load(path):
        text = tf.io.read_file(path)
        return text if max_length is None else tf.strings.substr(text, 0, max_length)

    return load


def _trim_or_pad(audio, length):
    audio = audio[:length]
    audio = tf.pad(audio, [[0, length - tf.shape(audio)[0]], [0, 0]])
    audio.set_shape((length, None))
    return audio


def audio_loader(output_sequence_length, sampling_rate, ragged, resample):
    """path -> float32 (samples, channels) in [-1, 1] from a 16-bit PCM wav; resampled to
    `sampling_rate` by `resample(audio, rate_in)` (a NumPy function), trimmed or zero-padded
    to `output_sequence_length`, as a RaggedTensor when `ragged`."""

    def load(path):
        fixed = output_sequence_length is not None and sampling_rate is None
        audio, rate = tf.audio.decode_wav(
            tf.io.read_file(path), desired_samples=output_sequence_length if fixed else -1
        )
        if sampling_rate is not None:
            audio = tf.numpy_function(resample, [audio, rate], tf.float32, stateful=False)
            audio.set_shape((None, None))
            if output_sequence_length is not None:
                audio = _trim_or_pad(audio, output_sequence_length)
        return tf.RaggedTensor.from_tensor(audio) if ragged else audio

    return load


# -- windows and in-memory arrays -----------------------------------------------------------
def timeseries_dataset(data, targets, positions, offsets, batch_size, shuffle, seed):
    """Windows `data[p + offsets]` for each start position p (with `targets[p]`)."""
    positions = tf.data.Dataset.from_tensor_slices(positions)
    windows = tf.data.Dataset.zip((tf.data.Dataset.from_tensors(data).repeat(), positions))
    dataset = windows.map(lambda d, p: tf.gather(d, p + offsets), num_parallel_calls=AUTOTUNE)
    if targets is not None:
        sources = tf.data.Dataset.zip((tf.data.Dataset.from_tensors(targets).repeat(), positions))
        dataset = tf.data.Dataset.zip(
            (dataset, sources.map(lambda t, p: t[p], num_parallel_calls=AUTOTUNE))
        )
    return _finish(dataset, batch_size, shuffle, seed)


def slices_dataset(arrays, batch_size=None):
    """The rows of `arrays` (an array or a tuple/dict of them), batched if `batch_size`."""
    return _finish(tf.data.Dataset.from_tensor_slices(arrays), batch_size, False, None)


def batch_size_of(dataset):
    """The batch size of a data set whose last step is `batch`, else None (as Keras reads it)."""
    size = getattr(dataset, "_batch_size", None)
    return None if size is None else int(size)


def samples(dataset):
    """The samples of `dataset` as NumPy values (a data set ending in `batch` is unbatched)."""
    if batch_size_of(dataset) is not None:
        dataset = dataset.unbatch()
    return list(dataset.as_numpy_iterator())

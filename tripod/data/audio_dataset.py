"""`audio_dataset_from_directory`: a labelled audio data set from a folder of WAV files per
class."""

import functools

import numpy as np

from tripod.backends.common import tree
from tripod.data import file_datasets
from tripod.data.array_dataset import stack_samples
from tripod.data.formats import resolve_format
from tripod.data.wav import read_wav, resample

AUDIO_EXTENSIONS = (".wav",)


class AudioReader:
    """path -> float32 (samples, channels) audio, resampled to `sampling_rate` and trimmed or
    zero-padded to `output_sequence_length` when given."""

    def __init__(self, sampling_rate, output_sequence_length):
        self.sampling_rate = sampling_rate
        self.output_sequence_length = output_sequence_length

    def __call__(self, path):
        audio, rate = read_wav(path)
        if self.sampling_rate is not None:
            audio = resample(audio, rate, self.sampling_rate)
        length = self.output_sequence_length
        if length is not None:
            audio = np.pad(audio[:length], [(0, max(0, length - len(audio))), (0, 0)])
        return audio


def _pad_to_longest(*leaves):
    """Audio clips stacked after zero-padding each to the longest (labels just stacked)."""
    if np.ndim(leaves[0]) < 2:
        return np.stack(leaves)
    longest = max(len(leaf) for leaf in leaves)
    return np.stack([np.pad(leaf, [(0, longest - len(leaf)), (0, 0)]) for leaf in leaves])


def padded_batch(samples):
    """A batch of clips of different lengths, each zero-padded to the longest."""
    return tree.map_structure(_pad_to_longest, *samples)


def ragged_batch(samples):
    """A batch whose clips stay as a list of arrays of their own lengths (labels stacked)."""
    if isinstance(samples[0], tuple):
        clips, labels = zip(*samples)
        return list(clips), stack_samples(labels)
    return list(samples)


def _check_sampling_rate(sampling_rate):
    if sampling_rate is not None and (
        not isinstance(sampling_rate, int) or isinstance(sampling_rate, bool) or sampling_rate <= 0
    ):
        raise ValueError(
            f"`sampling_rate` must be a positive int or None. Received: {sampling_rate!r}"
        )


def _collate(output_sequence_length, ragged):
    if ragged:
        return ragged_batch
    return stack_samples if output_sequence_length is not None else padded_batch


def audio_dataset_from_directory(
    directory,
    labels="inferred",
    label_mode="int",
    class_names=None,
    batch_size=32,
    sampling_rate=None,
    output_sequence_length=None,
    ragged=False,
    shuffle=True,
    seed=None,
    validation_split=None,
    subset=None,
    follow_links=False,
    verbose=True,
    format="tf",
):
    """A data set of float32 audio `(batch, samples, channels)` (and labels) from the `.wav`
    files of `directory`, decoded as `tf.audio.decode_wav` does (16-bit PCM to [-1, 1]).

    Labels, `class_names`, `label_mode`, `validation_split`/`subset`/`seed` and `batch_size`
    work as in `image_dataset_from_directory` (subset="both" gives a tuple). Clips are
    resampled to `sampling_rate` when given (Fourier resampling, no tensorflow-io needed),
    and trimmed or zero-padded to `output_sequence_length`; without it a batch is padded to
    its longest clip, or, with `ragged=True`, kept ragged (a `tf.RaggedTensor`; a list of
    arrays in an `ArrayDataset`). `format="tf"` (an addition to Keras 3.15's signature)
    returns a `tf.data.Dataset` when TensorFlow is installed, else, like `format="tripod"`,
    a `tripod.data.ArrayDataset` (files read with Python's `wave`).
    """
    format = resolve_format(format, "audio_dataset_from_directory")
    if ragged and output_sequence_length is not None:
        raise ValueError("`ragged` and `output_sequence_length` cannot both be set.")
    _check_sampling_rate(sampling_rate)

    def tf_load(tf_data):
        rate_out = functools.partial(resample, rate_out=sampling_rate)
        return tf_data.audio_loader(output_sequence_length, sampling_rate, ragged, rate_out)

    pipeline = file_datasets.Pipeline(
        "audio",
        AUDIO_EXTENSIONS,
        AudioReader(sampling_rate, output_sequence_length),
        tf_load,
        collate=_collate(output_sequence_length, ragged),
        padded=output_sequence_length is None and not ragged,
    )
    request = file_datasets.Request(
        directory,
        labels,
        label_mode,
        class_names,
        batch_size,
        shuffle,
        seed,
        validation_split,
        subset,
        follow_links,
        format,
        verbose,
    )
    datasets = file_datasets.build(pipeline, request)
    return tuple(datasets) if subset == "both" else datasets

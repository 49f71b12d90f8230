"""audio_dataset_from_directory and the wav reader on real 16-bit .wav files, in both formats."""

import os

import numpy as np
import pytest

from tests.data.builder_files import (
    FORMATS,
    as_numpy,
    batches,
    fit_or_predict,
    flat_dense,
    write_wav,
    write_wavs,
)
from tripod.data.audio_dataset import audio_dataset_from_directory
from tripod.data.wav import read_wav, resample

LENGTHS = {"no": [40, 30], "yes": [50]}


@pytest.fixture
def tree_of_wavs(tmp_path):
    return str(tmp_path), write_wavs(str(tmp_path), LENGTHS)


def load(directory, **kwargs):
    kwargs.setdefault("verbose", False)
    kwargs.setdefault("shuffle", False)
    return audio_dataset_from_directory(directory, **kwargs)


def as_float(samples):
    return (np.asarray(samples, "float32") / 32768.0)[:, None]


def test_read_wav_scales_16_bit_pcm_and_keeps_channels(tmp_path):
    stereo = np.array([[-32768, 0], [16384, 32767], [1, -1]], "int16")
    write_wav(str(tmp_path / "s.wav"), stereo, rate=22050)
    audio, rate = read_wav(str(tmp_path / "s.wav"))
    assert rate == 22050 and audio.dtype == np.float32 and audio.shape == (3, 2)
    np.testing.assert_array_equal(audio, stereo / np.float32(32768.0))
    (tmp_path / "bad.wav").write_bytes(b"not a wav file")
    with pytest.raises(ValueError, match="bad.wav"):
        read_wav(str(tmp_path / "bad.wav"))


def test_resample_keeps_a_sine_and_scales_the_length():
    t_in, t_out = np.arange(64) / 64.0, np.arange(32) / 32.0
    sine = np.sin(2 * np.pi * 3 * t_in)[:, None]
    down = resample(sine, 64, 32)
    assert down.shape == (32, 1)
    np.testing.assert_allclose(down[:, 0], np.sin(2 * np.pi * 3 * t_out), atol=1e-5)
    np.testing.assert_allclose(resample(down, 32, 64)[:, 0], sine[:, 0], atol=1e-5)
    np.testing.assert_array_equal(resample(sine, 8000, 8000), sine.astype("float32"))


@pytest.mark.parametrize("format", FORMATS)
def test_batches_are_padded_to_the_longest_clip(tree_of_wavs, format):
    directory, written = tree_of_wavs
    ds = load(directory, batch_size=3, format=format)
    assert ds.class_names == ["no", "yes"]
    ((x, y),) = batches(ds)
    assert x.shape == (3, 50, 1) and x.dtype == np.float32 and y.tolist() == [0, 0, 1]
    for clip, path in zip(x, sorted(written)):
        expected = as_float(written[path])
        np.testing.assert_array_equal(clip[: len(expected)], expected)
        assert not clip[len(expected) :].any()


@pytest.mark.parametrize("format", FORMATS)
def test_output_sequence_length_trims_and_pads(tree_of_wavs, format):
    directory, written = tree_of_wavs
    ((x, y),) = batches(
        load(directory, output_sequence_length=35, label_mode="categorical", format=format)
    )
    assert x.shape == (3, 35, 1) and y.tolist() == [[1, 0], [1, 0], [0, 1]]
    clip_30 = as_float(written[sorted(written)[1]])  # no/clip_1: 30 samples
    np.testing.assert_array_equal(x[1, :30], clip_30)
    assert not x[1, 30:].any()
    np.testing.assert_array_equal(x[2], as_float(written[sorted(written)[2]])[:35])


@pytest.mark.parametrize("format", FORMATS)
def test_sampling_rate_resamples_every_clip(tree_of_wavs, format):
    directory, written = tree_of_wavs
    ((x, _),) = batches(
        load(directory, sampling_rate=4000, output_sequence_length=20, format=format)
    )
    expected = resample(as_float(written[min(written)]), 8000, 4000)
    assert x.shape == (3, 20, 1)
    np.testing.assert_allclose(x[0], expected, atol=1e-6)


@pytest.mark.parametrize("format", FORMATS)
def test_ragged_batches_keep_each_length(tree_of_wavs, format):
    directory, _ = tree_of_wavs
    (batch,) = list(load(directory, ragged=True, label_mode=None, format=format))
    lengths = [len(as_numpy(clip)) for clip in batch]
    assert lengths == [40, 30, 50]
    with pytest.raises(ValueError, match="ragged"):
        load(directory, ragged=True, output_sequence_length=10, format=format)


@pytest.mark.parametrize("format", FORMATS)
def test_split_both_gives_a_disjoint_tuple(tmp_path, format):
    written = write_wavs(str(tmp_path), {"a": [10] * 4, "b": [12] * 6})
    train, val = load(
        str(tmp_path), validation_split=0.3, subset="both", seed=2, shuffle=True, format=format
    )
    assert len(train.file_paths) == 7 and len(val.file_paths) == 3
    assert set(train.file_paths) | set(val.file_paths) == set(written)
    assert set(train.file_paths).isdisjoint(val.file_paths)
    for x, y in batches(train):
        for clip, label in zip(x, y):  # a clips are 10 long, padded in mixed batches
            assert (np.count_nonzero(clip) > 10) == (label == 1)
    assert all(os.path.basename(p).startswith("clip_") for p in train.file_paths)


def test_bad_sampling_rate_is_rejected(tree_of_wavs):
    for rate in (0, 16000.0, True):
        with pytest.raises(ValueError, match="sampling_rate"):
            load(tree_of_wavs[0], sampling_rate=rate)


@pytest.mark.parametrize("format", FORMATS)
def test_model_trains_on_the_audio_dataset(tree_of_wavs, format):
    ds = load(
        tree_of_wavs[0],
        batch_size=2,
        output_sequence_length=16,
        shuffle=True,
        seed=0,
        format=format,
    )
    assert fit_or_predict(ds, flat_dense(2), "sparse_categorical_crossentropy").shape == (3, 2)

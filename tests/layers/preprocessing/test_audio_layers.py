"""`MelSpectrogram` and `STFTSpectrogram` against NumPy references (np.fft), on every backend."""

import math

import numpy as np
import pytest

import tripod
from tests.layers.harness import run_layer_test
from tripod.backends import config
from tripod.layers.preprocessing.audio import MelSpectrogram, STFTSpectrogram
from tripod.layers.preprocessing.audio.mel_spectrogram import mel_weight_matrix
from tripod.layers.stft_initializer import named_window

TRAINS = config.backend() != "numpy"
EPSILON = 1e-7  # Keras's backend epsilon, which the log and magnitude modes floor at


def to_numpy(x):
    return np.asarray(tripod.ops.convert_to_numpy(x))


def signals(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype("float32")


# -- NumPy references ----------------------------------------------------------------------------
def reference_mel(
    x,
    fft_length,
    sequence_stride,
    sequence_length=None,
    window="hann",
    sampling_rate=16000,
    num_mel_bins=128,
    min_freq=20.0,
    max_freq=None,
    power_to_db=True,
    top_db=80.0,
    mag_exp=2.0,
    min_power=1e-10,
    ref_power=1.0,
):
    """Centred (reflect-padded) frames, a periodic window centred in each fft_length frame,
    |rfft|^mag_exp, the mel filter bank, decibels clipped top_db below the batch maximum."""
    x = np.asarray(x, np.float64)
    sequence_length = sequence_length or fft_length
    half = fft_length // 2
    padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(half, half)], mode="reflect")
    count = 1 + (padded.shape[-1] - fft_length) // sequence_stride
    frames = np.stack(
        [padded[..., i * sequence_stride : i * sequence_stride + fft_length] for i in range(count)],
        axis=-2,
    )
    if window is not None:
        values = (
            named_window(window, sequence_length, periodic=True)
            if isinstance(window, str)
            else window
        )
        left = (fft_length - sequence_length) // 2
        frames = frames * np.pad(values, (left, fft_length - sequence_length - left))
    magnitude = np.abs(np.fft.rfft(frames, fft_length)) ** mag_exp
    max_freq = max_freq or sampling_rate // 2
    mel = magnitude @ mel_weight_matrix(num_mel_bins, half + 1, sampling_rate, min_freq, max_freq)
    if power_to_db:
        mel = 10 * np.log10(np.maximum(mel, min_power)) - 10 * np.log10(
            max(abs(ref_power), min_power)
        )
        mel = np.maximum(mel, mel.max() - top_db)
    return np.swapaxes(mel, -1, -2)


def reference_stft(
    x,
    mode,
    frame_length,
    frame_step,
    fft_length,
    window="hann",
    periodic=False,
    scaling="density",
    padding="valid",
    expand_dims=False,
    data_format="channels_last",
):
    """Each channel framed (TensorFlow-style "same" padding), windowed, np.fft.rfft'd, laid out
    as Keras lays out STFTSpectrogram's output."""
    x = np.asarray(x, np.float64)
    if data_format == "channels_last":
        x = np.swapaxes(x, 1, 2)  # (batch, channels, time)
    length = x.shape[-1]
    if padding == "same":
        count = -(-length // frame_step)
        total = max((count - 1) * frame_step + frame_length - length, 0)
        x = np.pad(x, [(0, 0), (0, 0), (total // 2, total - total // 2)])
    count = (x.shape[-1] - frame_length) // frame_step + 1
    frames = np.stack(
        [x[..., i * frame_step : i * frame_step + frame_length] for i in range(count)], -2
    )
    if window is not None:
        values = (
            named_window(window, frame_length, periodic)
            if isinstance(window, str)
            else np.asarray(window)
        )
        scale = {
            "density": np.sqrt(np.sum(values**2)),
            "spectrum": np.sum(np.abs(values)),
            None: 1.0,
        }[scaling]
        frames = frames * values / scale
    bins = fft_length // 2 + 1
    spectrum = np.fft.rfft(frames, 2 * (bins - 1))  # (batch, channels, frames, bins)
    power = np.abs(spectrum) ** 2
    psd = power.copy()
    psd[..., 1:-1] *= 2
    values = {
        "real": spectrum.real,
        "imag": spectrum.imag,
        "angle": np.angle(spectrum),
        "stft": np.concatenate([spectrum.real, spectrum.imag], axis=-1),
        "psd": psd,
        "magnitude": np.sqrt(np.maximum(power, EPSILON)),
        "log": np.log(np.maximum(np.sqrt(np.maximum(power, EPSILON)), EPSILON)),
    }[mode]
    batch, channels, frames_, bins_ = values.shape
    if expand_dims:
        return values.transpose(0, 2, 3, 1) if data_format == "channels_last" else values
    if data_format == "channels_last":
        return values.transpose(0, 2, 1, 3).reshape(batch, frames_, channels * bins_)
    return values.transpose(0, 1, 3, 2).reshape(batch, channels * bins_, frames_)


# -- the mel filter bank -------------------------------------------------------------------------
def test_mel_filter_bank_by_hand():
    """Bins at 0, 700 and 1400 Hz (mel = 1127 ln(1 + f/700): 0, M ln2/ln3, M) under one and two
    triangles spanning [0, 1400] Hz: the weights are ratios of distances in mel."""
    r = math.log(2) / math.log(3)
    np.testing.assert_allclose(
        mel_weight_matrix(1, 3, 2800, 0.0, 1400.0), [[0], [2 - 2 * r], [0]], atol=1e-12
    )
    want = [[0, 0], [2 - 3 * r, 3 * r - 1], [0, 0]]
    np.testing.assert_allclose(mel_weight_matrix(2, 3, 2800, 0.0, 1400.0), want, atol=1e-12)


def test_mel_filter_bank_shape_and_peaks():
    matrix = mel_weight_matrix(20, 257, 16000, 20.0, 8000.0)
    assert matrix.shape == (257, 20)
    assert np.all(matrix[0] == 0) and np.all(matrix >= 0) and np.all(matrix.max(axis=0) <= 1.0)
    assert np.all(matrix.max(axis=0) > 0.5)  # every triangle covers a bin near its peak


def test_linear_to_mel_weight_matrix_method():
    layer = MelSpectrogram()
    got = to_numpy(layer.linear_to_mel_weight_matrix(10, 65, 8000, 100.0, 3000.0))
    np.testing.assert_allclose(
        got, mel_weight_matrix(10, 65, 8000, 100.0, 3000.0), rtol=1e-6, atol=1e-7
    )


# -- MelSpectrogram ------------------------------------------------------------------------------
MEL_CASES = [
    {"fft_length": 64, "sequence_stride": 16, "num_mel_bins": 8, "sampling_rate": 8000},
    {
        "fft_length": 64,
        "sequence_stride": 20,
        "sequence_length": 48,
        "window": "hamming",
        "num_mel_bins": 6,
        "sampling_rate": 16000,
        "min_freq": 100.0,
        "max_freq": 5000.0,
        "top_db": 30.0,
        "ref_power": 2.0,
        "mag_exp": 1.0,
    },
    {
        "fft_length": 32,
        "sequence_stride": 32,
        "power_to_db": False,
        "num_mel_bins": 5,
        "window": None,
    },
]


@pytest.mark.parametrize("kwargs", MEL_CASES)
def test_mel_matches_reference(kwargs):
    x = signals((2, 300))
    got = to_numpy(MelSpectrogram(**kwargs)(x))
    want = reference_mel(x, **kwargs)
    assert got.shape == want.shape and got.dtype == np.float32
    scale = 1.0 if kwargs.get("power_to_db", True) else np.abs(want).max()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=2e-3 * scale)


def test_mel_shapes_batched_and_unbatched():
    layer = MelSpectrogram(fft_length=64, sequence_stride=16, num_mel_bins=8, sampling_rate=8000)
    x = signals((3, 250))
    batched = to_numpy(layer(x))
    assert batched.shape == (3, 8, 1 + 250 // 16) == layer.compute_output_shape((3, 250))
    single = to_numpy(layer(x[1]))
    assert single.shape == (8, 1 + 250 // 16) == layer.compute_output_shape((250,))
    np.testing.assert_allclose(
        single,
        reference_mel(x[1], 64, 16, num_mel_bins=8, sampling_rate=8000),
        rtol=1e-4,
        atol=2e-3,
    )
    assert layer.compute_output_shape((None, None)) == (None, 8, None)


def test_mel_window_values():
    window = np.linspace(0.2, 1.0, 32).astype("float32")
    kwargs = {
        "fft_length": 32,
        "sequence_stride": 8,
        "num_mel_bins": 4,
        "sampling_rate": 4000,
        "window": window,
    }
    x = signals((1, 100))
    np.testing.assert_allclose(
        to_numpy(MelSpectrogram(**kwargs)(x)), reference_mel(x, **kwargs), rtol=1e-4, atol=2e-3
    )
    config_ = MelSpectrogram(**kwargs).get_config()
    assert config_["window"] == window.tolist()
    assert MelSpectrogram.from_config(config_).get_config() == config_


def test_mel_layer_test_and_config():
    kwargs = {"fft_length": 32, "sequence_stride": 16, "num_mel_bins": 6, "sampling_rate": 8000}
    run_layer_test(
        MelSpectrogram,
        kwargs,
        input_shape=(2, 64),
        expected_output_shape=(2, 6, 5),
        expected_num_trainable_weights=0,
        expected_num_non_trainable_weights=0,
    )
    config_ = MelSpectrogram(**kwargs).get_config()
    assert config_["max_freq"] == 4000 and config_["sequence_length"] == 32


def test_mel_bad_arguments():
    with pytest.raises(ValueError, match="fft_length"):
        MelSpectrogram(fft_length=32, sequence_length=64)
    with pytest.raises(ValueError, match="window"):
        MelSpectrogram(window="kaiser")
    with pytest.raises(ValueError, match=r"shape \(2048,\)"):
        MelSpectrogram(window=np.ones(10))
    with pytest.raises(ValueError, match="min_freq"):
        MelSpectrogram(min_freq=9000.0, sampling_rate=16000)
    with pytest.raises(ValueError, match="num_mel_bins"):
        MelSpectrogram(num_mel_bins=0)


# -- STFTSpectrogram -----------------------------------------------------------------------------
STFT_CASES = [
    {"mode": "log"},
    {
        "mode": "magnitude",
        "padding": "same",
        "window": "hamming",
        "scaling": "spectrum",
        "periodic": True,
    },
    {"mode": "psd", "window": None, "scaling": None},
    {"mode": "real", "padding": "same"},
    {"mode": "imag", "window": "blackman"},
    {"mode": "angle"},
    {"mode": "stft", "padding": "same"},
]


@pytest.mark.parametrize("kwargs", STFT_CASES, ids=lambda k: k["mode"])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("expand_dims", [False, True])
def test_stft_matches_reference(kwargs, data_format, expand_dims):
    x = signals((2, 3, 70) if data_format == "channels_first" else (2, 70, 3))
    layer = STFTSpectrogram(
        frame_length=15,
        frame_step=6,
        fft_length=16,
        data_format=data_format,
        expand_dims=expand_dims,
        **kwargs,
    )
    got = to_numpy(layer(x))
    want = reference_stft(
        x,
        frame_length=15,
        frame_step=6,
        fft_length=16,
        data_format=data_format,
        expand_dims=expand_dims,
        **kwargs,
    )
    assert got.shape == want.shape == layer.compute_output_shape(x.shape)
    if kwargs["mode"] == "angle":  # angles compared on the circle, where the bin is not ~0
        got, want = np.exp(1j * got), np.exp(1j * want)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_stft_defaults_and_shapes():
    layer = STFTSpectrogram()  # frame 256, step 128, fft 256
    x = signals((2, 1000, 1))
    assert to_numpy(layer(x)).shape == (2, (1000 - 256) // 128 + 1, 129)
    assert layer.real_kernel.shape == (256, 1, 129) and layer.imag_kernel.shape == (256, 1, 129)
    assert STFTSpectrogram(frame_length=100).compute_output_shape((None, 1000, 2)) == (
        None,
        19,
        130,
    )
    layer = STFTSpectrogram(frame_length=100, padding="same", expand_dims=True)
    assert layer.compute_output_shape((None, 1000, 2)) == (None, 20, 65, 2)


def test_stft_kernels_per_mode():
    x = signals((1, 40, 1))
    for mode, names in (
        ("real", ["real_kernel"]),
        ("imag", ["imag_kernel"]),
        ("log", ["real_kernel", "imag_kernel"]),
    ):
        layer = STFTSpectrogram(mode=mode, frame_length=8)
        layer(x)
        assert [w.name for w in layer.weights] == names


def test_stft_layer_test():
    """Symbolic and eager shapes, config, a gradient step moving the trainable kernels and the
    compiled step matching the eager one."""
    kwargs = {"mode": "magnitude", "frame_length": 8, "frame_step": 4, "fft_length": 8}
    run_layer_test(
        STFTSpectrogram,
        kwargs,
        input_shape=(2, 32, 2),
        expected_output_shape=(2, 7, 10),
        expected_num_trainable_weights=2,
        expected_num_non_trainable_weights=0,
    )
    frozen = STFTSpectrogram(trainable=False, **kwargs)
    frozen(signals((1, 32, 1)))
    assert len(frozen.non_trainable_weights) == 2


def test_stft_config_round_trip():
    layer = STFTSpectrogram(
        mode="psd",
        frame_length=4,
        frame_step=2,
        fft_length=8,
        window=np.array([0.5, 1.0, 1.0, 0.5]),
        periodic=True,
        scaling=None,
        padding="same",
        expand_dims=True,
        data_format="channels_first",
    )
    config_ = layer.get_config()
    assert config_["window"] == [0.5, 1.0, 1.0, 0.5] and config_["frame_step"] == 2
    assert STFTSpectrogram.from_config(config_).get_config() == config_


def test_stft_bad_arguments_and_inputs():
    with pytest.raises(ValueError, match="mode"):
        STFTSpectrogram(mode="power")
    with pytest.raises(ValueError, match="frame_step"):
        STFTSpectrogram(frame_length=8, frame_step=9)
    with pytest.raises(ValueError, match="fft_length"):
        STFTSpectrogram(frame_length=8, fft_length=4)
    with pytest.raises(ValueError, match="padding"):
        STFTSpectrogram(padding="causal")
    with pytest.raises(ValueError, match="scaling"):
        STFTSpectrogram(scaling="l1")
    with pytest.warns(UserWarning, match="power of two"):
        STFTSpectrogram(frame_length=8, fft_length=12)
    with pytest.raises(ValueError, match="rank 3"):
        STFTSpectrogram(frame_length=8)(signals((2, 40)))
    with pytest.raises(TypeError, match="float"):
        STFTSpectrogram(frame_length=8)(np.ones((1, 40, 1), "int32"))


# -- in models and input pipelines ---------------------------------------------------------------
AUDIO_LAYERS = [
    (
        MelSpectrogram,
        {"fft_length": 32, "sequence_stride": 16, "num_mel_bins": 6, "sampling_rate": 8000},
        (4, 96),
    ),
    (STFTSpectrogram, {"mode": "log", "frame_length": 16, "frame_step": 8}, (4, 96, 2)),
]


@pytest.mark.parametrize(
    "layer_cls, kwargs, shape", AUDIO_LAYERS, ids=lambda v: getattr(v, "__name__", "")
)
def test_in_model(layer_cls, kwargs, shape):
    x = signals(shape)
    layer = layer_cls(**kwargs)
    model = tripod.Sequential(
        [tripod.Input(shape[1:]), layer, tripod.layers.Flatten(), tripod.layers.Dense(1)]
    )
    if TRAINS:
        model.compile("sgd", "mse")
        model.fit(x, np.zeros((len(x), 1), "float32"), epochs=1, batch_size=2, verbose=0)
    dense = model.layers[-1]
    flat = to_numpy(layer(x)).reshape(len(x), -1)
    want = flat @ to_numpy(dense.kernel.value) + to_numpy(dense.bias.value)
    np.testing.assert_allclose(
        model.predict(x, batch_size=2, verbose=0), want, rtol=1e-4, atol=1e-3
    )


@pytest.mark.parametrize(
    "layer_cls, kwargs, shape", AUDIO_LAYERS, ids=lambda v: getattr(v, "__name__", "")
)
def test_in_tf_data_map(layer_cls, kwargs, shape):
    """In a tf.data map the layer computes with TensorFlow ops whatever the backend, and gives
    what it gives eagerly (MelSpectrogram's top_db clip is per batch, so batches match)."""
    tf = pytest.importorskip("tensorflow")
    x = signals(shape)
    layer = layer_cls(**kwargs)
    dataset = tf.data.Dataset.from_tensor_slices(x).batch(2).map(layer)
    piped = np.concatenate([batch.numpy() for batch in dataset])
    eager = np.concatenate([to_numpy(layer(x[:2])), to_numpy(layer(x[2:]))])
    np.testing.assert_allclose(piped, eager, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "layer_cls, kwargs, shape", AUDIO_LAYERS, ids=lambda v: getattr(v, "__name__", "")
)
def test_on_torch_tensors(layer_cls, kwargs, shape):
    """On torch tensors (a DataLoader worker's) the layer computes with torch ops."""
    torch = pytest.importorskip("torch")
    x = signals(shape)
    layer = layer_cls(**kwargs)
    out = layer(torch.from_numpy(x))
    assert isinstance(out, torch.Tensor)
    np.testing.assert_allclose(out.detach().numpy(), to_numpy(layer(x)), rtol=1e-4, atol=1e-4)

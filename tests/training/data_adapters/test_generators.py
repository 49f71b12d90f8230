"""Python generators as data: x, (x, y) and (x, y, sample_weight) batches."""

import numpy as np
import pytest

from tests.training.data_adapters.helpers import (
    BATCH,
    SW,
    X,
    Y,
    assert_same_training,
    batches,
    model,
    needs_training,
)
from tripod.training.data_adapters import get_data_adapter


def endless(items):
    while True:
        yield from items


@needs_training
def test_fit_on_an_endless_generator_with_steps_per_epoch():
    m = model()
    history = m.fit(endless(batches(X, Y)), steps_per_epoch=4, epochs=2, verbose=0)
    assert_same_training(m, history)


@needs_training
def test_sample_weights_from_the_generator():
    m = model()
    history = m.fit(endless(batches(X, Y, SW)), steps_per_epoch=4, epochs=2, verbose=0)
    assert_same_training(m, history, sample_weight=SW)


@needs_training
def test_a_finite_generator_is_one_epoch():
    m = model()
    history = m.fit(iter(batches(X, Y)), epochs=1, verbose=0)
    assert_same_training(m, history, epochs=1)


@needs_training
def test_a_generator_that_runs_short_warns():
    m = model()
    with pytest.warns(UserWarning, match="ran out of data after 4 of 6 steps"):
        m.fit(iter(batches(X, Y)), steps_per_epoch=6, epochs=1, verbose=0)


def test_evaluate_and_predict_on_every_backend():
    m = model()
    logs = m.evaluate(iter(batches(X, Y)), verbose=0, return_dict=True)
    expected = m.evaluate(X, Y, batch_size=BATCH, verbose=0, return_dict=True)
    assert logs == pytest.approx(expected, rel=1e-6)
    predicted = m.predict((b for (b,) in batches(X)), verbose=0)
    np.testing.assert_allclose(predicted, m.predict(X, verbose=0), rtol=1e-6)
    predicted = m.predict(endless(batches(X)), steps=2, verbose=0)
    assert predicted.shape == (16, 1)


def test_batches_become_numpy_in_floatx_and_keep_their_structure():
    generator = iter([({"a": np.ones((2, 3)), "b": [np.zeros((2, 1), "int64")]}, np.ones((2, 1)))])
    adapter = get_data_adapter(generator)
    assert adapter.num_batches is None
    ((x, y),) = list(adapter.get_iterator())
    assert x["a"].dtype == np.float32 and x["b"][0].dtype == np.int64 and y.dtype == np.float32
    assert adapter.batch_size == 2


def test_class_weight_on_generator_batches():
    labels = np.array([0, 1, 1, 0])
    adapter = get_data_adapter(iter([(np.ones((4, 2)), labels)]), class_weight={0: 1.0, 1: 3.0})
    ((_, _, sample_weight),) = list(adapter.get_iterator())
    np.testing.assert_array_equal(sample_weight, [1, 3, 3, 1])


def test_errors():
    with pytest.raises(ValueError, match="`y` is not supported when x is a generator"):
        get_data_adapter(iter([]), y=np.ones(3))
    adapter = get_data_adapter(iter([(np.array([[1.0, np.nan]]), np.ones((1, 1)))]), check_nan=True)
    with pytest.raises(ValueError, match=r"A batch holds 1 NaN value\(s\) in x"):
        list(adapter.get_iterator())

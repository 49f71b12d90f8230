"""The Python loops behind the eager backends' while_loop and fori_loop."""

import numpy as np

from tripod.backends.common import loops


def test_while_loop_runs_until_the_condition_fails():
    assert loops.while_loop(lambda i: i < 5, lambda i: i + 2, 0, None) == 6
    state = loops.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2), [0, 1], None)
    assert state == (3, 8)


def test_while_loop_stops_at_maximum_iterations():
    assert loops.while_loop(lambda i: True, lambda i: i + 1, 0, np.int32(4)) == 4
    assert loops.while_loop(lambda i: True, lambda i: i + 1, 0, 0) == 0


def test_while_loop_reads_the_condition_with_truth():
    calls = []

    def truth(value):
        calls.append(value)
        return bool(np.asarray(value).all())

    result = loops.while_loop(lambda x: x < 3, lambda x: x + 1, np.array([0, 1]), None, truth)
    np.testing.assert_array_equal(result, [2, 3])
    assert len(calls) == 3


def test_fori_loop():
    assert loops.fori_loop(2, 5, lambda i, total: total + i, 0) == 2 + 3 + 4
    assert loops.fori_loop(np.int64(3), 3, lambda i, total: total + 1, 7) == 7

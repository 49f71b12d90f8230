"""Loops of the eager backends (numpy, torch), run as plain Python loops."""


def while_loop(cond, body, loop_vars, maximum_iterations, truth=bool):
    """`ops.while_loop` run eagerly; `truth` reads the value `cond` returns as a Python bool."""
    packed = isinstance(loop_vars, (list, tuple))
    state = tuple(loop_vars) if packed else (loop_vars,)
    limit = None if maximum_iterations is None else int(maximum_iterations)
    steps = 0
    while (limit is None or steps < limit) and truth(cond(*state)):
        state = body(*state)
        state = tuple(state) if isinstance(state, (list, tuple)) else (state,)
        steps += 1
    return state if packed else state[0]


def fori_loop(lower, upper, body_fun, init_val):
    """`ops.fori_loop` run eagerly: `body_fun(i, value)` for each Python int i in [lower, upper)."""
    value = init_val
    for i in range(int(lower), int(upper)):
        value = body_fun(i, value)
    return value

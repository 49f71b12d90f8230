"""NumPy references for the optimizer tests: each update rule on float64 arrays, and the shared
pipeline (unscaling, accumulation, clipping, weight decay, EMA) around it.

Each rule takes (w, g, slots, lr, t) — t counts updates from 1 — updates `slots` (a dict of
arrays, created on first use) and returns the new w.
"""

import numpy as np


def sgd(momentum=0.0, nesterov=False):
    def rule(w, g, s, lr, t):
        if not momentum:
            return w - lr * g
        s["momentum"] = momentum * s.get("momentum", 0 * w) - lr * g
        return w + (momentum * s["momentum"] - lr * g if nesterov else s["momentum"])

    return rule


def adam(beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False):
    def rule(w, g, s, lr, t):
        s["momentum"] = beta_1 * s.get("momentum", 0 * w) + (1 - beta_1) * g
        s["velocity"] = beta_2 * s.get("velocity", 0 * w) + (1 - beta_2) * g * g
        v = s["velocity"]
        if amsgrad:
            v = s["velocity_hat"] = np.maximum(s.get("velocity_hat", 0 * w), v)
        alpha = lr * np.sqrt(1 - beta_2**t) / (1 - beta_1**t)
        return w - alpha * s["momentum"] / (np.sqrt(v) + epsilon)

    return rule


def adamax(beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    def rule(w, g, s, lr, t):
        s["momentum"] = beta_1 * s.get("momentum", 0 * w) + (1 - beta_1) * g
        s["norm"] = np.maximum(beta_2 * s.get("norm", 0 * w), np.abs(g))
        return w - lr / (1 - beta_1**t) * s["momentum"] / (s["norm"] + epsilon)

    return rule


def nadam(beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    """Keras's Nadam: momentum schedule mu_t = beta_1 (1 - 0.96^t / 2); the running product of
    mu is shared by all variables (kept in the shared dict `nadam`)."""
    shared = {"product": 1.0, "t": 0}

    def mu(t):
        return beta_1 * (1 - 0.5 * 0.96**t)

    def rule(w, g, s, lr, t):
        if shared["t"] != t:  # first variable of this step
            shared["t"], shared["product"] = t, shared["product"] * mu(t)
        product = shared["product"]
        s["momentum"] = beta_1 * s.get("momentum", 0 * w) + (1 - beta_1) * g
        s["velocity"] = beta_2 * s.get("velocity", 0 * w) + (1 - beta_2) * g * g
        m_hat = mu(t + 1) * s["momentum"] / (1 - product * mu(t + 1)) + (1 - mu(t)) * g / (
            1 - product
        )
        v_hat = s["velocity"] / (1 - beta_2**t)
        return w - lr * m_hat / (np.sqrt(v_hat) + epsilon)

    rule.shared = shared
    return rule


def rmsprop(rho=0.9, momentum=0.0, epsilon=1e-7, centered=False):
    def rule(w, g, s, lr, t):
        s["velocity"] = rho * s.get("velocity", 0 * w) + (1 - rho) * g * g
        denominator = s["velocity"]
        if centered:
            s["average_gradient"] = rho * s.get("average_gradient", 0 * w) + (1 - rho) * g
            denominator = denominator - s["average_gradient"] ** 2
        step = lr * g / np.sqrt(denominator + epsilon)
        if momentum:
            step = s["momentum"] = momentum * s.get("momentum", 0 * w) + step
        return w - step

    return rule


def adagrad(initial_accumulator_value=0.1, epsilon=1e-7):
    def rule(w, g, s, lr, t):
        s["accumulator"] = s.get("accumulator", 0 * w + initial_accumulator_value) + g * g
        return w - lr * g / np.sqrt(s["accumulator"] + epsilon)

    return rule


def adadelta(rho=0.95, epsilon=1e-7):
    def rule(w, g, s, lr, t):
        s["accumulated_grad"] = rho * s.get("accumulated_grad", 0 * w) + (1 - rho) * g * g
        delta_before = s.get("accumulated_delta_var", 0 * w)
        delta = np.sqrt(delta_before + epsilon) / np.sqrt(s["accumulated_grad"] + epsilon) * g
        s["accumulated_delta_var"] = rho * delta_before + (1 - rho) * delta * delta
        return w - lr * delta

    return rule


def adafactor(
    beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3, clip_threshold=1.0, relative_step=True
):
    def rms(x):
        return np.sqrt(np.mean(x * x))

    def rule(w, g, s, lr, t):
        rate = min(lr, 1 / np.sqrt(t)) if relative_step else lr
        decay = 1 - t**beta_2_decay
        squares = g * g + epsilon_1
        if w.ndim >= 2:
            s["row"] = decay * s.get("row", np.zeros(w.shape[:-1])) + (1 - decay) * squares.mean(-1)
            s["col"] = decay * s.get("col", np.zeros(w.shape[:-2] + w.shape[-1:])) + (
                1 - decay
            ) * squares.mean(-2)
            s["velocity"] = (s["row"] / s["row"].mean(-1, keepdims=True))[..., None] * s["col"][
                ..., None, :
            ]
        else:
            s["row"], s["col"] = np.zeros(()), np.zeros(())
            s["velocity"] = decay * s.get("velocity", 0 * w) + (1 - decay) * squares
        u = g / np.sqrt(s["velocity"])
        u = u / max(1.0, rms(u) / clip_threshold)
        return w - max(epsilon_2, rms(w)) * rate * u

    return rule


def ftrl(
    learning_rate_power=-0.5,
    initial_accumulator_value=0.1,
    l1_regularization_strength=0.0,
    l2_regularization_strength=0.0,
    l2_shrinkage_regularization_strength=0.0,
    beta=0.0,
):
    p, l1 = -learning_rate_power, l1_regularization_strength

    def rule(w, g, s, lr, t):
        before = s.get("accumulator", 0 * w + initial_accumulator_value)
        after = before + g * g
        shrunk = g + 2 * l2_shrinkage_regularization_strength * w
        s["linear"] = s.get("linear", 0 * w) + shrunk - (after**p - before**p) / lr * w
        quadratic = after**p / lr + 2 * (l2_regularization_strength + beta / (2 * lr))
        s["accumulator"] = after
        return (np.clip(s["linear"], -l1, l1) - s["linear"]) / quadratic

    return rule


def lion(beta_1=0.9, beta_2=0.99):
    def rule(w, g, s, lr, t):
        m = s.get("momentum", 0 * w)
        w = w - lr * np.sign(beta_1 * m + (1 - beta_1) * g)
        s["momentum"] = beta_2 * m + (1 - beta_2) * g
        return w

    return rule


def lamb(beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    def rule(w, g, s, lr, t):
        s["momentum"] = beta_1 * s.get("momentum", 0 * w) + (1 - beta_1) * g
        s["velocity"] = beta_2 * s.get("velocity", 0 * w) + (1 - beta_2) * g * g
        m_hat, v_hat = s["momentum"] / (1 - beta_1**t), s["velocity"] / (1 - beta_2**t)
        update = m_hat / (np.sqrt(v_hat) + epsilon)
        w_norm, u_norm = np.linalg.norm(w), np.linalg.norm(update)
        ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
        return w - lr * ratio * update

    return rule


def schedule_free_adamw(beta_1=0.9, beta_2=0.999, epsilon=1e-8, warmup_steps=0):
    """z (slot `momentum`) starts at the first weights seen; x is the 1/t-weighted average of
    the z's and the weights are y = (1 - beta_1) z + beta_1 x."""

    def rule(w, g, s, lr, t):
        if warmup_steps:
            lr = lr * min(t / warmup_steps, 1.0)
        z = s.get("momentum", w)
        x = (w - (1 - beta_1) * z) / beta_1
        s["velocity"] = beta_2 * s.get("velocity", 0 * w) + (1 - beta_2) * g * g
        z = s["momentum"] = z - lr * g / (np.sqrt(s["velocity"] / (1 - beta_2**t)) + epsilon)
        x = (1 - 1 / t) * x + z / t
        return (1 - beta_1) * z + beta_1 * x

    return rule


def newton_schulz(x, steps, a=3.4445, b=-4.775, c=2.0315):
    """The quintic Newton-Schulz iteration Muon orthogonalises its step with."""
    tall = x.shape[0] > x.shape[1]
    x = x.T if tall else x
    x = x / (np.linalg.norm(x) + 1e-7)
    for _ in range(steps):
        gram = x @ x.T
        x = a * x + (b * gram + c * gram @ gram) @ x
    return x.T if tall else x


def muon(
    momentum=0.95,
    nesterov=True,
    ns_steps=5,
    rms_rate=0.2,
    adam_beta_1=0.9,
    adam_beta_2=0.999,
    epsilon=1e-7,
    adam_lr_ratio=1.0,
    weight_decay=0.004,
    adam_weight_decay=0.004,
    adam_for=None,
):
    """Muon for 2-D weights, Adam for the others (or where `adam_for(w)` says so); each kind
    with its own decoupled weight decay (so run the pipeline without `weight_decay`)."""
    adam_rule = adam(adam_beta_1, adam_beta_2, epsilon)
    uses_adam = adam_for or (lambda w: w.ndim != 2)

    def rule(w, g, s, lr, t):
        if uses_adam(w):
            w = w - w * lr * (adam_weight_decay or 0.0)
            return adam_rule(w, g, s, lr * adam_lr_ratio, t)
        w = w - w * lr * (weight_decay or 0.0)
        s["momentum"] = momentum * s.get("momentum", 0 * w) + g
        direction = g + momentum * s["momentum"] if nesterov else s["momentum"]
        step = lr * newton_schulz(direction, ns_steps)
        if rms_rate is not None:
            step = step * np.sqrt(max(w.shape)) * rms_rate
        return w - step

    return rule


def run(
    rule,
    init,
    grads,
    learning_rate=0.05,
    weight_decay=None,
    clipnorm=None,
    clipvalue=None,
    global_clipnorm=None,
    use_ema=False,
    ema_momentum=0.99,
    ema_overwrite_frequency=None,
    loss_scale_factor=None,
    gradient_accumulation_steps=None,
    decay_mask=None,
):
    """Apply `grads` (a list of steps, each a list of arrays) to `init` through the pipeline.

    Returns (trajectory: the weights after every call, slots per variable, EMA averages).
    `learning_rate` may be a function of the number of updates done so far.
    """
    weights = [np.asarray(w, np.float64) for w in init]
    slots = [{} for _ in weights]
    accumulated = [np.zeros_like(w) for w in weights]
    averages = [w.copy() for w in weights]
    decay_mask = decay_mask or [True] * len(weights)
    updates, trajectory = 0, []
    for call, step_grads in enumerate(grads):
        step_grads = [np.asarray(g, np.float64) for g in step_grads]
        if loss_scale_factor:
            step_grads = [g / loss_scale_factor for g in step_grads]
        apply_now = True
        if gradient_accumulation_steps:
            accumulated = [a + g for a, g in zip(accumulated, step_grads)]
            apply_now = (call + 1) % gradient_accumulation_steps == 0
            step_grads = [a / gradient_accumulation_steps for a in accumulated]
        if apply_now:
            accumulated = [np.zeros_like(w) for w in weights]
            lr = learning_rate(updates) if callable(learning_rate) else learning_rate
            step_grads = _clip(step_grads, clipnorm, clipvalue, global_clipnorm)
            if weight_decay:
                weights = [
                    w - w * lr * weight_decay if m else w for w, m in zip(weights, decay_mask)
                ]
            weights = [
                rule(w, g, s, lr, updates + 1) for w, g, s in zip(weights, step_grads, slots)
            ]
            updates += 1
        if use_ema:
            iteration = call // gradient_accumulation_steps if gradient_accumulation_steps else call
            momentum = 0.0 if iteration == 0 else ema_momentum
            averages = [momentum * a + (1 - momentum) * w for a, w in zip(averages, weights)]
            if ema_overwrite_frequency and (iteration + 1) % ema_overwrite_frequency == 0:
                weights = [a.copy() for a in averages]
        trajectory.append([w.copy() for w in weights])
    return trajectory, slots, averages


def _clip(grads, clipnorm, clipvalue, global_clipnorm):
    if clipnorm:
        return [g * clipnorm / max(np.linalg.norm(g), clipnorm) for g in grads]
    if clipvalue:
        return [np.clip(g, -clipvalue, clipvalue) for g in grads]
    if global_clipnorm:
        total = np.sqrt(sum(np.sum(g * g) for g in grads))
        return [g * global_clipnorm / max(total, global_clipnorm) for g in grads]
    return grads

"""The benchmark problems as a hand-written PyTorch loop (eager, torch.optim.Adam)."""

import numpy as np
import torch
from torch import nn

from benchmarks.problems import PROBLEMS, samples_per_second, time_epochs


def _model(name):
    if name == "tutorial_mlp":
        return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)), nn.MSELoss(), 0.01
    if name == "mnist_mlp":
        model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))
    else:
        model = nn.Sequential(
            nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(),
            nn.MaxPool2d(2), nn.Flatten(), nn.Linear(64 * 5 * 5, 10),
        )  # fmt: skip
    return model, nn.CrossEntropyLoss(), 0.001


def _tensors(name, x, y):
    x = torch.from_numpy(x)
    if x.ndim == 4:
        x = x.permute(0, 3, 1, 2).contiguous()
    y = torch.from_numpy(y).long() if y.dtype.kind == "i" else torch.from_numpy(y)
    return x, y


def fit(name, x, y):
    """(seconds of the first epoch, seconds per step after it)."""
    _, _, batch, samples, _ = PROBLEMS[name]
    model, loss_fn, lr = _model(name)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    x, y = _tensors(name, x, y)

    def epoch():
        order = torch.randperm(samples)
        for start in range(0, samples, batch):
            index = order[start : start + batch]
            optimizer.zero_grad()
            loss = loss_fn(model(x[index]), y[index])
            loss.backward()
            optimizer.step()
        return float(loss.detach())

    return time_epochs(name, epoch)


def predict(name, x):
    """Samples per second of a forward loop in batches."""
    _, _, batch, samples, _ = PROBLEMS[name]
    model, _, _ = _model(name)
    x, _ = _tensors(name, x, np.zeros(1, "float32"))

    def one_pass():
        with torch.no_grad():
            return np.concatenate([model(x[i : i + batch]).numpy() for i in range(0, samples, batch)])

    one_pass()
    return samples_per_second(name, one_pass)

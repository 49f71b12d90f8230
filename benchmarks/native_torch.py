"""The benchmark problems as a hand-written PyTorch loop (nn.Module, torch.optim.Adam): eager, or
`compiled` (`benchmarks.run --jit-compile`): forward pass and loss, and the optimizer step, each
under `torch.compile`, as PyTorch's tutorials compile a training loop."""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from benchmarks.problems import PROBLEMS, samples_per_second, time_epochs


class Encoder(nn.Module):
    """The transformer block: self-attention of 2 heads of width 32 and a feed-forward net, each
    followed by dropout, a residual and a layer norm. nn.MultiheadAttention cannot have heads wider
    than width / heads (Keras's key_dim=32 with width 32), so the projections are nn.Linear and the
    attention is F.scaled_dot_product_attention, what nn.MultiheadAttention calls inside."""

    def __init__(self, width=32, heads=2, key_dim=32, hidden=32, rate=0.1):
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value = (nn.Linear(width, heads * key_dim) for _ in range(3))
        self.out = nn.Linear(heads * key_dim, width)
        self.ffn = nn.Sequential(nn.Linear(width, hidden), nn.ReLU(), nn.Linear(hidden, width))
        self.norm1, self.norm2 = nn.LayerNorm(width, eps=1e-6), nn.LayerNorm(width, eps=1e-6)
        self.drop1, self.drop2 = nn.Dropout(rate), nn.Dropout(rate)

    def attend(self, x):
        batch, length, _ = x.shape
        q, k, v = (
            p(x).view(batch, length, self.heads, -1).transpose(1, 2)
            for p in (self.query, self.key, self.value)
        )
        return self.out(
            F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(batch, length, -1)
        )

    def forward(self, x):
        x = self.norm1(x + self.drop1(self.attend(x)))
        return self.norm2(x + self.drop2(self.ffn(x)))


class TextTransformer(nn.Module):
    """Token + position embeddings, an encoder block, mean over positions, a dense head."""

    def __init__(self, vocab, length, classes, width=32, rate=0.1):
        super().__init__()
        self.tokens, self.positions = nn.Embedding(vocab, width), nn.Embedding(length, width)
        self.encoder = Encoder(width)
        self.head = nn.Sequential(
            nn.Dropout(rate),
            nn.Linear(width, 20),
            nn.ReLU(),
            nn.Dropout(rate),
            nn.Linear(20, classes),
        )

    def forward(self, x):
        x = self.tokens(x) + self.positions(torch.arange(x.shape[1]))
        return self.head(self.encoder(x).mean(dim=1))


def conv_bn(n_in, n_out, stride=1):
    """3x3 convolution without bias, then batch norm with Keras's defaults (momentum 0.99, eps 1e-3)."""
    return nn.Sequential(
        nn.Conv2d(n_in, n_out, 3, stride, padding=1, bias=False),
        nn.BatchNorm2d(n_out, eps=1e-3, momentum=0.01),
    )


class BasicBlock(nn.Module):
    """conv-BN-relu-conv-BN plus the shortcut (a strided 1x1 conv when the shape changes), relu."""

    def __init__(self, n_in, n_out, stride):
        super().__init__()
        self.first, self.second = conv_bn(n_in, n_out, stride), conv_bn(n_out, n_out)
        self.shortcut = nn.Conv2d(n_in, n_out, 1, stride) if stride != 1 else nn.Identity()

    def forward(self, x):
        return F.relu(self.second(F.relu(self.first(x))) + self.shortcut(x))


def resnet(classes):
    """Stem conv-BN-relu, blocks of 16, 32 and 64 filters, global average pooling, a dense layer."""
    return nn.Sequential(
        conv_bn(3, 16), nn.ReLU(), BasicBlock(16, 16, 1), BasicBlock(16, 32, 2), BasicBlock(32, 64, 2),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, classes),
    )  # fmt: skip


class TextLSTM(nn.Module):
    """Embedding -> LSTM(64) -> Dense(1, sigmoid). nn.LSTM keeps two biases per gate where Keras
    keeps one; their sum is the one bias, so the second is held at zero and frozen."""

    def __init__(self, vocab, width=64):
        super().__init__()
        self.embed, self.dense = nn.Embedding(vocab, width), nn.Linear(width, 1)
        self.lstm = nn.LSTM(width, width, batch_first=True)
        with torch.no_grad():
            self.lstm.bias_hh_l0.zero_()
        self.lstm.bias_hh_l0.requires_grad_(False)

    def forward(self, x):
        _, (last, _) = self.lstm(self.embed(x))
        return torch.sigmoid(self.dense(last[-1]))


def _model(name):
    """(module, loss function, learning rate) of a problem."""
    problem = PROBLEMS[name]
    if name == "tutorial_mlp":
        return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1)), nn.MSELoss(), 0.01
    if name == "mnist_mlp":
        model = nn.Sequential(
            nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)
        )
    elif name == "small_cnn":
        model = nn.Sequential(
            nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(),
            nn.MaxPool2d(2), nn.Flatten(), nn.Linear(64 * 5 * 5, 10),
        )  # fmt: skip
    elif name == "transformer":
        model = TextTransformer(problem.vocab, problem.shape[0], problem.units)
    elif name == "resnet":
        model = resnet(problem.units)
    else:
        return TextLSTM(problem.vocab), nn.BCELoss(), 0.001
    return model, nn.CrossEntropyLoss(), 0.001


def _tensors(x, y):
    """Torch tensors of a problem's arrays: images channels-first, token ids and labels as int64."""
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    if x.ndim == 4:
        x = x.permute(0, 3, 1, 2).contiguous()
    return (x.long() if not x.is_floating_point() else x), (
        y.long() if not y.is_floating_point() else y
    )


def count(name):
    """(trainable scalars, float state scalars such as batch-norm statistics) of the problem's module."""
    model = _model(name)[0]
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return trainable, sum(b.numel() for b in model.buffers() if b.is_floating_point())


def _compiled(fn, compiled):
    """`fn` under torch.compile when `compiled`; static shapes, as tripod compiles its steps."""
    return torch.compile(fn, dynamic=False) if compiled else fn


def fit(name, x, y, compiled=False):
    """(seconds of the first epoch, seconds per step after it)."""
    batch, samples = PROBLEMS[name].batch, PROBLEMS[name].samples
    model, loss_fn, lr = _model(name)
    optimizer = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    x, y = _tensors(x, y)
    model.train()
    loss_of = _compiled(lambda inputs, targets: loss_fn(model(inputs), targets), compiled)
    update = _compiled(optimizer.step, compiled)

    def epoch():
        order = torch.randperm(samples)
        for start in range(0, samples, batch):
            index = order[start : start + batch]
            optimizer.zero_grad()
            loss = loss_of(x[index], y[index])
            loss.backward()
            update()
        return float(loss.detach())

    return time_epochs(name, epoch)


def predict(name, x, compiled=False):
    """Samples per second of a forward loop in batches, in eval mode."""
    batch, samples = PROBLEMS[name].batch, PROBLEMS[name].samples
    model = _compiled(_model(name)[0].eval(), compiled)
    x, _ = _tensors(x, np.zeros(1, "float32"))

    def one_pass():
        with torch.no_grad():
            return np.concatenate(
                [model(x[i : i + batch]).numpy() for i in range(0, samples, batch)]
            )

    one_pass()
    return samples_per_second(name, one_pass)

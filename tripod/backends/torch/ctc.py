"""The torch backend: CTC ops (the connectionist temporal classification loss and decoding).

The loss is torch's kernel; greedy decoding and a batched prefix beam search run on torch tensors.
"""

import math

import torch
import torch.nn.functional as F

from tripod.backends.torch.helpers import as_floatx, stats_dtype
from tripod.backends.torch.tensors import convert_to_tensor

__all__ = ["ctc_decode", "ctc_loss"]


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    output = as_floatx(output)
    log_probs = torch.log_softmax(output.to(stats_dtype(output.dtype)), -1)
    loss = F.ctc_loss(
        log_probs.transpose(0, 1),
        convert_to_tensor(target).long(),
        convert_to_tensor(output_length).long(),
        convert_to_tensor(target_length).long(),
        blank=mask_index,
        reduction="none",
    )
    return loss.to(output.dtype)


def _compact(labels, keep):
    """Each row's kept labels moved to its front, the rest filled with -1 (int32)."""
    batch, steps = labels.shape
    slot = torch.where(keep, keep.cumsum(1) - 1, steps)
    out = torch.full((batch, steps + 1), -1, dtype=labels.dtype, device=labels.device)
    return out.scatter(1, slot, labels)[:, :steps].int()


def _ctc_greedy(inputs, lengths, merge_repeated, mask_index):
    best, labels = inputs.max(-1)
    valid = torch.arange(inputs.shape[1], device=inputs.device) < lengths[:, None]
    labels = labels.masked_fill(~valid, mask_index)
    keep = labels != mask_index
    if merge_repeated:
        keep[:, 1:] &= labels[:, 1:] != labels[:, :-1]
    score = -best.masked_fill(~valid, 0.0).sum(1, keepdim=True)
    return _compact(labels, keep)[None], score.float()


class _Beams:
    """CTC prefix beam search state: per batch row, `width` distinct label prefixes.

    `prefixes` (B, W, T) holds each prefix padded with -1, `size` (B, W) its length; `blank` and
    `label` are the log-probabilities of the prefix's alignments ending in a blank and in its
    last label. A beam with total log-probability -inf is a filler, never merged with.
    """

    def __init__(self, batch, width, steps, device, dtype):
        self.prefixes = torch.full((batch, width, steps), -1, dtype=torch.long, device=device)
        self.size = torch.zeros((batch, width), dtype=torch.long, device=device)
        self.blank = torch.full((batch, width), -math.inf, dtype=dtype, device=device)
        self.blank[:, 0] = 0.0
        self.label = torch.full_like(self.blank, -math.inf)

    def total(self):
        return torch.logaddexp(self.blank, self.label)

    def last(self):
        """Each prefix's last label, -1 for the empty prefix."""
        return self.prefixes.gather(2, (self.size - 1).clamp(min=0)[..., None]).squeeze(-1)

    def extensions_of(self):
        """(B, W2, W1) whether live prefix w2 is live prefix w1 plus one label."""
        live = self.total() > -math.inf
        parent = self.prefixes.scatter(2, (self.size - 1).clamp(min=0)[..., None], -1)
        same = (parent[:, :, None, :] == self.prefixes[:, None, :, :]).all(-1)
        longer = self.size[:, :, None] == self.size[:, None, :] + 1
        return same & longer & live[:, :, None] & live[:, None, :]

    def step(self, log_probs, blank_index):
        """The beams after one more time step with per-class `log_probs` (B, C)."""
        batch, width = self.size.shape
        classes = log_probs.shape[1]
        total, last = self.total(), self.last()
        stay_blank = total + log_probs[:, blank_index, None]
        last_prob = log_probs.gather(1, last.clamp(min=0))
        stay_label = torch.where(last >= 0, self.label + last_prob, -math.inf)
        # Extending by the last label again needs a blank in between.
        repeat = torch.arange(classes, device=last.device) == last[..., None]
        extend = torch.where(repeat, self.blank[..., None], total[..., None]) + log_probs[:, None]
        extend[..., blank_index] = -math.inf
        # An extension that equals an existing prefix merges into that prefix's stay.
        child = self.extensions_of()
        into = extend.gather(2, last.clamp(min=0)[:, None, :].expand(-1, width, -1))
        merged = torch.where(child, into.transpose(1, 2), -math.inf).logsumexp(-1)
        stay_label = torch.logaddexp(stay_label, merged)
        source = child.float().argmax(-1) * classes + last.clamp(min=0)
        slot = torch.where(child.any(-1), source, width * classes)
        flat = torch.cat([extend.reshape(batch, -1), extend.new_zeros(batch, 1)], 1)
        extend = flat.scatter(1, slot, -math.inf)[:, :-1]
        scores = torch.cat([torch.logaddexp(stay_blank, stay_label), extend], 1)
        return self._select(scores, stay_blank, stay_label, extend, classes)

    def _select(self, scores, stay_blank, stay_label, extend, classes):
        """Keep the best `width` of the stay and extension candidates."""
        width = self.size.shape[1]
        _, pick = scores.topk(width, 1)
        grows = pick >= width
        source = torch.where(grows, (pick - width) // classes, pick)
        label = (pick - width) % classes
        prefixes = self.prefixes.gather(1, source[..., None].expand_as(self.prefixes))
        size = self.size.gather(1, source)
        end = prefixes.gather(2, size[..., None]).squeeze(-1)
        prefixes = prefixes.scatter(2, size[..., None], torch.where(grows, label, end)[..., None])
        new = object.__new__(_Beams)
        new.prefixes, new.size = prefixes, size + grows.long()
        new.blank = torch.where(grows, -math.inf, stay_blank.gather(1, source))
        grown = extend.gather(1, (pick - width).clamp(min=0))
        new.label = torch.where(grows, grown, stay_label.gather(1, source))
        return new

    def where(self, active, other):
        """These beams in rows where `active` (B,), `other`'s elsewhere."""
        new = object.__new__(_Beams)
        for name in ("prefixes", "size", "blank", "label"):
            mine, theirs = getattr(self, name), getattr(other, name)
            mask = active.reshape(-1, *[1] * (mine.ndim - 1))
            setattr(new, name, torch.where(mask, mine, theirs))
        return new


def _ctc_beam_search(inputs, lengths, beam_width, top_paths, mask_index):
    batch, steps, _ = inputs.shape
    log_probs = torch.log_softmax(inputs.to(stats_dtype(inputs.dtype)), -1)
    beams = _Beams(batch, beam_width, max(steps, 1), inputs.device, log_probs.dtype)
    for t in range(steps):
        beams = beams.step(log_probs[:, t], mask_index).where(t < lengths, beams)
    kept = min(top_paths, beam_width)
    scores = beams.total()[:, :kept]
    found = (scores > -math.inf)[..., None]
    paths = torch.where(found, beams.prefixes[:, :kept, :steps], -1).transpose(0, 1)
    # Asking for more paths than beams gives empty paths scored -inf.
    missing = top_paths - kept
    paths = F.pad(paths, (0, 0, 0, 0, 0, missing), value=-1)
    scores = F.pad(scores, (0, missing), value=-math.inf)
    return paths.int(), scores.float()


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    inputs = as_floatx(inputs)
    if inputs.ndim != 3:
        raise ValueError(f"inputs must be (batch, time, classes), got {tuple(inputs.shape)}.")
    lengths = convert_to_tensor(sequence_lengths).long()
    if strategy == "greedy":
        return _ctc_greedy(inputs, lengths, merge_repeated, mask_index)
    if strategy == "beam_search":
        return _ctc_beam_search(inputs, lengths, beam_width, top_paths, mask_index)
    raise ValueError(f"strategy must be 'greedy' or 'beam_search', got {strategy!r}.")

"""A minimal TensorBoard event-file writer: scalar and histogram summaries, no framework needed.

An event file is a sequence of TFRecords, each framed as
`uint64 length | uint32 masked_crc32c(length) | data | uint32 masked_crc32c(data)`, where `data`
is an `Event` protocol buffer. The few protobuf fields used here are encoded by hand:
Event{wall_time=1: double, step=2: int64, file_version=3: string, summary=5: Summary},
Summary{value=1: repeated Value}, Value{tag=1: string, simple_value=2: float, histo=5: Histogram},
HistogramProto{min=1, max=2, num=3, sum=4, sum_squares=5: double, bucket_limit=6, bucket=7: packed double}.
"""

import itertools
import os
import socket
import struct
import time

import numpy as np

_CASTAGNOLI = 0x82F63B78  # the CRC-32C polynomial, bit-reversed


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ _CASTAGNOLI if crc & 1 else crc >> 1
        table.append(crc)
    return table


_TABLE = _crc_table()


def crc32c(data):
    """The CRC-32C (Castagnoli) checksum of `data`."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    """The checksum as TFRecord stores it: rotated and offset, so CRCs of CRCs stay distinct."""
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def tfrecord(data):
    """`data` framed as one TFRecord."""
    length = struct.pack("<Q", len(data))
    return (
        length
        + struct.pack("<I", masked_crc32c(length))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


# -- protobuf wire format ------------------------------------------------------------------------
def _varint(value):
    out = bytearray()
    value &= (1 << 64) - 1  # negative int64 values take ten bytes, as two's complement
    while True:
        bits = value & 0x7F
        value >>= 7
        if value:
            out.append(bits | 0x80)
        else:
            out.append(bits)
            return bytes(out)


def _key(field, wire_type):
    return _varint((field << 3) | wire_type)


def _double(field, value):
    return _key(field, 1) + struct.pack("<d", value)


def _float(field, value):
    return _key(field, 5) + struct.pack("<f", value)


def _int(field, value):
    return _key(field, 0) + _varint(int(value))


def _bytes(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return _key(field, 2) + _varint(len(data)) + data


def _packed_doubles(field, values):
    return _bytes(field, struct.pack(f"<{len(values)}d", *values))


def _histogram(values, bins):
    """A HistogramProto of `values`: `bins` equal-width buckets over their range."""
    values = np.asarray(values, dtype="float64").ravel()
    values = values[np.isfinite(values)]
    if values.size == 0:
        return _double(3, 0.0)
    low, high = float(values.min()), float(values.max())
    counts, edges = np.histogram(values, bins=bins if high > low else 1)
    return (
        _double(1, low)
        + _double(2, high)
        + _double(3, float(values.size))
        + _double(4, float(values.sum()))
        + _double(5, float(np.square(values).sum()))
        + _packed_doubles(6, edges[1:].tolist())
        + _packed_doubles(7, counts.astype("float64").tolist())
    )


def scalar_value(tag, value):
    """A Summary.Value holding a scalar."""
    return _bytes(1, tag) + _float(2, float(value))


def histogram_value(tag, values, bins=30):
    """A Summary.Value holding a histogram of `values`."""
    return _bytes(1, tag) + _bytes(5, _histogram(values, bins))


def event(step, summary_values=(), file_version=None, wall_time=None):
    """An encoded Event: a file-version header, or a Summary of the given encoded values."""
    data = _double(1, time.time() if wall_time is None else wall_time) + _int(2, step)
    if file_version is not None:
        data += _bytes(3, file_version)
    if summary_values:
        data += _bytes(5, b"".join(_bytes(1, v) for v in summary_values))
    return data


_COUNTER = itertools.count()


class NullWriter:
    """Takes events and writes nothing (the processes but the first of a distributed run)."""

    def scalars(self, step, values):
        """Drop {tag: number}."""

    def histograms(self, step, values):
        """Drop {tag: array}."""

    def flush(self):
        """Nothing buffered."""

    def close(self):
        """Nothing open."""


class EventFileWriter:
    """Appends events to a new `events.out.tfevents.*` file in `log_dir`."""

    def __init__(self, log_dir):
        os.makedirs(log_dir, exist_ok=True)
        name = f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}.{os.getpid()}.{next(_COUNTER)}.v2"
        self.path = os.path.join(log_dir, name)
        self._file = open(self.path, "wb")  # noqa: SIM115 - closed by close()
        self._write(event(0, file_version="brain.Event:2"))

    def _write(self, data):
        self._file.write(tfrecord(data))

    def scalars(self, step, values):
        """Write {tag: number} at `step`."""
        if values:
            self._write(event(step, [scalar_value(tag, v) for tag, v in values.items()]))

    def histograms(self, step, values):
        """Write {tag: array} as histograms at `step`."""
        if values:
            self._write(event(step, [histogram_value(tag, v) for tag, v in values.items()]))

    def flush(self):
        self._file.flush()

    def close(self):
        if not self._file.closed:
            self._file.close()

"""Small tar and zip archives, good and malicious, written for the extraction tests."""

import io
import tarfile
import zipfile


def add_file(tar, name, data=b"x"):
    """Add a regular file member `name` holding `data` to the open tar."""
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def add_link(tar, name, target, kind=tarfile.SYMTYPE):
    """Add a symbolic (or, with `kind=tarfile.LNKTYPE`, hard) link `name` -> `target`."""
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    tar.addfile(info)


def add_special(tar, name, kind):
    """Add a device file or FIFO member (`tarfile.CHRTYPE`, `BLKTYPE`, `FIFOTYPE`)."""
    info = tarfile.TarInfo(name)
    info.type = kind
    tar.addfile(info)


def write_tar(path, build, mode="w:gz"):
    """Write a tar at `path` whose members `build(tar)` adds."""
    with tarfile.open(path, mode) as tar:
        build(tar)
    return path


def write_zip(path, members):
    """Write a zip at `path` with `members`, a dict name -> bytes."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(zipfile.ZipInfo(name), data)
    return path


def mark_encrypted(path):
    """Set the 'encrypted' flag of every member of the zip at `path` (in its local and central
    headers), as an encrypting zip tool would."""
    data = bytearray(path.read_bytes())
    for signature, flag_offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = data.find(signature)
        while start != -1:
            data[start + flag_offset] |= 0x1
            start = data.find(signature, start + 4)
    path.write_bytes(bytes(data))

"""Reading untrusted files and writing files safely, for every reader and writer of Velvet.

Readers refuse what is not a regular file (a folder, a device such as
``/dev/zero``, a pipe), anything over :data:`MAX_FILE_BYTES`, text that is not
UTF-8 (naming the byte), JSON or TOML that is malformed, nested deeper than
:data:`MAX_DEPTH`, or holds an integer of more than :data:`MAX_INT_DIGITS`
digits or a NaN. Each problem is one line naming the file and the place.

Writers go through a temporary file made by :func:`tempfile.mkstemp` in the
target folder (a unique name, created exclusively, so a symlink planted there
is never followed), flush and fsync it, then rename it over the target. An
existing target is replaced only when the caller says so (``overwrite``), and
never when it is not a regular file.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 16 * 1024 * 1024
"""No card set, deck, save, record or results file of Velvet comes near this size."""
MAX_DEPTH = 64
"""Deepest nesting of tables and arrays accepted in any file (real files need under 10)."""
MAX_INT_DIGITS = 30
"""Longest integer accepted in any file (a 64-bit seed has 20 digits)."""

ErrorFactory = Callable[[str], Exception]


def show_path(label: str, limit: int = 120) -> str:
    """A file name fit for a one-line message: printable, and shortened in the middle."""
    text = label if label.isprintable() else repr(label)[1:-1]
    if len(text) <= limit:
        return text
    half = (limit - 1) // 2
    return f"{text[:half]}…{text[-half:]}"


def _fail(error: ErrorFactory, label: str, message: str) -> Exception:
    return error(f"{show_path(label)}: {message}")


def describe_os_error(exc: OSError | ValueError) -> str:
    """A short reason for an OSError (or a ValueError such as an embedded NUL byte)."""
    if isinstance(exc, ValueError):
        return "not a usable file name (it holds a NUL byte)" if "null" in str(exc) else str(exc)
    reason = exc.strerror or type(exc).__name__
    return reason[0].lower() + reason[1:]


def read_bytes(path: Path | str, error: ErrorFactory, label: str | None = None) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES, or ``error`` naming the problem."""
    label = label or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise _fail(error, label, "no such file") from None
    except IsADirectoryError:
        raise _fail(error, label, "is a folder, not a file") from None
    except (OSError, ValueError) as exc:
        raise _fail(error, label, f"cannot be read ({describe_os_error(exc)})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise _fail(error, label, "is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise _fail(error, label, "is not a regular file (a device, pipe or socket)")
        if info.st_size > MAX_FILE_BYTES:
            raise _fail(
                error, label, f"is too large ({info.st_size} bytes; at most {MAX_FILE_BYTES})"
            )
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                raise _fail(error, label, f"is too large (over {MAX_FILE_BYTES} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise _fail(error, label, f"cannot be read ({describe_os_error(exc)})") from None
    finally:
        os.close(fd)


def decode_utf8(data: bytes, error: ErrorFactory, label: str) -> str:
    """UTF-8 text, or ``error`` naming the line and column of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _fail(
            error, label, f"line {line}, column {column}: not UTF-8 text (byte {exc.start})"
        ) from None


def read_text(path: Path | str, error: ErrorFactory, label: str | None = None) -> str:
    label = label or str(path)
    return decode_utf8(read_bytes(path, error, label), error, label)


def _where(path: list[str]) -> str:
    return ".".join(path) or "the top level"


def check_data(data: Any, error: ErrorFactory, label: str) -> None:
    """Depth, integer size and NaN limits over parsed data (iterative: any depth is safe)."""
    stack: list[tuple[Any, list[str]]] = [(data, [])]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict | list | tuple) and len(path) >= MAX_DEPTH:
            raise _fail(error, label, f"{_where(path[:3])}…: nested deeper than {MAX_DEPTH}")
        if isinstance(value, dict):
            for key, item in value.items():
                stack.append((item, [*path, str(key)[:40]]))
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                stack.append((item, [*path, str(index)]))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int):
            if abs(value) >= 10**MAX_INT_DIGITS:
                message = f"integer too large (over {MAX_INT_DIGITS} digits)"
                raise _fail(error, label, f"{_where(path)}: {message}")
        elif isinstance(value, float) and not math.isfinite(value):
            raise _fail(error, label, f"{_where(path)}: not a finite number ({value})")


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("+-").replace("_", ""))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"integer too large ({digits} digits; at most {MAX_INT_DIGITS})")
    return int(text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number Velvet accepts")


def parse_json(text: str, error: ErrorFactory, label: str) -> Any:
    """JSON data within the limits, or one line naming the place and the fault."""
    try:
        data = json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise _fail(error, label, f"line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise _fail(error, label, f"nested deeper than {MAX_DEPTH}") from None
    except ValueError as exc:
        raise _fail(error, label, f"not valid JSON: {one_line(str(exc))}") from None
    check_data(data, error, label)
    return data


def parse_toml(text: str, error: ErrorFactory, label: str) -> dict[str, Any]:
    """TOML data within the limits, or one line naming the place and the fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(error, label, f"not valid TOML: {one_line(str(exc))}") from None
    except RecursionError:
        raise _fail(error, label, f"nested deeper than {MAX_DEPTH}") from None
    except ValueError as exc:  # an integer over Python's digit limit, and the like
        reason = "an integer is too large" if "digits" in str(exc) else one_line(str(exc))
        raise _fail(error, label, f"not valid TOML: {reason}") from None
    check_data(data, error, label)
    return data


def one_line(text: str, limit: int = 300) -> str:
    """A library's message as one line of at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _file_mode() -> int:
    """The mode a plainly created file gets here (0666 less the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


FILE_MODE = _file_mode()


def check_target(path: Path, error: ErrorFactory, *, overwrite: bool) -> None:
    """Refuse a target that is no plain file name, is not a regular file, or exists."""
    label = str(path)
    if "\x00" in label:
        raise _fail(error, label, "not a usable file name (it holds a NUL byte)")
    if path.name in ("", ".", "..") or label.endswith(os.sep):
        raise _fail(error, label, "not a file name")
    if len(os.fsencode(path.name)) > 255:
        raise _fail(error, label, "file name too long (over 255 bytes)")
    parent = path.parent
    if not parent.is_dir():
        raise _fail(error, label, f"no such folder: {parent}")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _fail(error, label, f"cannot be written ({describe_os_error(exc)})") from None
    if stat.S_ISDIR(info.st_mode):
        raise _fail(error, label, "is a folder: give a file name")
    if not stat.S_ISREG(info.st_mode) and not stat.S_ISLNK(info.st_mode):
        raise _fail(error, label, "is not a regular file (a device, pipe or socket): not replaced")
    if not overwrite:
        raise _fail(error, label, "exists already: pass --force to replace it")


def write_atomic(
    path: Path | str, data: bytes, error: ErrorFactory, *, overwrite: bool = True
) -> None:
    """Write ``data`` to ``path`` safely: unique temporary file, fsync, then rename.

    ``overwrite=False`` refuses an existing file. A failure leaves the old file
    (if any) as it was and no temporary file behind.
    """
    path = Path(path)
    check_target(path, error, overwrite=overwrite)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name[:40]}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _fail(error, str(path), f"cannot be written ({describe_os_error(exc)})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise _fail(error, str(path), f"cannot be written ({describe_os_error(exc)})") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: some systems cannot open folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

"""Writing reports without losing a run.

Every output path is checked before the first claim runs
(:func:`check_output_paths`), and each file is written atomically
(:func:`atomic_write_text`): to a temporary file in the same directory, then renamed
over the target, so a reader never sees half a report and a failed write leaves the
previous report in place.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

__all__ = ["OutputPathError", "atomic_write_text", "check_output_paths", "rescue_path"]

_WRITE_BITS = 0o222


class OutputPathError(ValueError):
    """An output path that cannot be written; the message is one line naming it."""


def _problem(path: Path) -> str | None:
    if path.is_dir():
        return "is a directory"
    parent = path.parent
    if not parent.exists():
        return f"directory {str(parent)!r} does not exist"
    if not parent.is_dir():
        return f"{str(parent)!r} is not a directory"
    if path.exists() and (not os.access(path, os.W_OK) or not path.stat().st_mode & _WRITE_BITS):
        # Root may write anything; a file without write permission is still not to be
        # replaced behind the user's back (an atomic rename would do just that).
        return "is a read-only file"
    try:  # the atomic write needs a new file in the directory: try one
        fd, probe = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=".probe")
    except OSError as exc:
        return f"cannot write in directory {str(parent)!r}: {exc.strerror or exc}"
    os.close(fd)
    os.unlink(probe)
    return None


def check_output_paths(paths: Mapping[str, str | os.PathLike[str] | None]) -> None:
    """Check that each path (keyed by the option that named it) can be written.

    Raises
    ------
    OutputPathError
        For the first path that is a directory, lies in a missing directory, is a
        read-only file, or whose directory does not accept new files; or when two
        options name the same file.
    """
    seen: dict[Path, str] = {}
    for option, raw in paths.items():
        if not raw:
            continue
        path = Path(raw)
        problem = _problem(path)
        if problem:
            raise OutputPathError(f"{option} {str(raw)!r}: {problem}")
        key = path.resolve()
        if key in seen:
            raise OutputPathError(f"{option} {str(raw)!r}: the same file as {seen[key]}")
        seen[key] = option


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename.

    The new file gets the mode of the file it replaces, or the usual mode for a new
    file (``0o666`` less the umask).
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def rescue_path(stem: str = "mltheory-results") -> Path:
    """A fresh file in the system's temporary directory, for results whose intended
    path could not be written after the run."""
    fd, name = tempfile.mkstemp(prefix=f"{stem}-", suffix=".json")
    os.close(fd)
    return Path(name)

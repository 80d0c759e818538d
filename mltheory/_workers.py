"""Running claims in worker processes or on a dask.distributed cluster.

The parent process discovers and selects the claims; a worker receives only claim ids
and seeds. Claims register when their module is imported, so before its first claim
every worker imports the same modules the parent did (:class:`WorkerSetup`: the
built-in claim packages, the entry points and the user's ``--claims`` modules, with
the parent's extra ``sys.path`` entries), then checks each claim with
:func:`mltheory.runner.run_claim` exactly as a serial run does: the claim's seed comes
from its id and the run's seed, and :mod:`mltheory._reproducible` shields the examples
from which modules happen to be loaded. A worker sends back the result without its
:class:`~mltheory.claims.Claim` (functions do not travel); the parent re-attaches its
own. Results are therefore those of a serial run, timings aside.

Local pools use the ``spawn`` start method (a fresh interpreter, not a copy of the
parent's state) and ignore SIGINT, so Ctrl-C reaches the parent only, which stops the
workers and keeps what has finished.

A dask worker may run several tasks at once in threads; checks patch process-wide
state (Hypothesis settings on the check function, warnings filters), so a process runs
one claim at a time. Start dask workers with ``--nthreads 1`` and as many processes as
cores (``dask worker ADDRESS --nworkers N --nthreads 1``).
"""

from __future__ import annotations

import concurrent.futures
import concurrent.futures.process
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from mltheory.claims import Claim, get_claim
from mltheory.evidence import Evidence, _jsonable
from mltheory.results import Result

__all__ = ["WorkerError", "WorkerSetup", "connect", "execute"]

#: Seconds to wait for a dask scheduler before giving up.
CONNECT_TIMEOUT_S = 10

Task = tuple[Claim, int]  # (claim, seed)
OnResult = Callable[[Claim, int, Result], None]


class WorkerError(RuntimeError):
    """A worker could not set itself up or lost a claim (not a verdict: the run stops)."""


@dataclass(frozen=True)
class WorkerSetup:
    """What a worker imports before its first claim: the same claim modules as the parent.

    Parameters
    ----------
    modules : tuple of str
        The user's ``--claims`` modules and the modules of the claims to run.
    builtin, entry_points : bool
        As for :func:`mltheory.runner.discover`.
    sys_path : tuple of str
        Directories put in front of the worker's ``sys.path`` when they exist there
        (the parent's working directory, for ``--claims`` modules found in it).
    """

    modules: tuple[str, ...] = ()
    builtin: bool = True
    entry_points: bool = True
    sys_path: tuple[str, ...] = ()


_READY: set[WorkerSetup] = set()
_LOCK = threading.RLock()


def _prepare(setup: WorkerSetup) -> None:
    if setup in _READY:
        return
    for path in reversed(setup.sys_path):
        if path not in sys.path and os.path.isdir(path):
            sys.path.insert(0, path)
    from mltheory.runner import discover

    discover(setup.modules, builtin=setup.builtin, entry_points=setup.entry_points)
    _READY.add(setup)


def _wire(result: Result) -> dict[str, Any]:
    """The result's fields without the claim, made picklable if a check recorded an
    object that is not (its JSON form, which is all a report shows, is kept)."""
    wire = {f.name: getattr(result, f.name) for f in fields(result) if f.name != "claim"}
    try:
        pickle.dumps(wire)
    except Exception:  # noqa: BLE001 - any pickling failure
        ev: Evidence = wire["evidence"]
        metrics = {k: replace(m, value=_jsonable(m.value)) for k, m in ev.metrics.items()}
        wire["evidence"] = replace(ev, metrics=metrics)
    return wire


def run_task(setup: WorkerSetup, profile: str, claim_id: str, seed: int) -> dict[str, Any]:
    """Check one claim in this (worker) process; what travels back to the parent."""
    from mltheory.runner import run_claim

    with _LOCK:
        _prepare(setup)
        try:
            c = get_claim(claim_id)
        except KeyError:
            raise WorkerError(
                f"claim {claim_id!r} is not registered in the worker after importing "
                f"{list(setup.modules) or 'the built-in claims'}"
            ) from None
        return _wire(run_claim(c, profile=profile, seed=seed))


def _ignore_sigint() -> None:  # pragma: no cover - runs in the worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_pool(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (Ctrl-C)."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        if p.is_alive():
            p.terminate()
    for p in processes:
        p.join(timeout=5)


def _run_pool(tasks: Sequence[Task], profile: str, jobs: int, setup: WorkerSetup,
              on_result: OnResult) -> bool:
    ctx = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=min(jobs, len(tasks)), mp_context=ctx, initializer=_ignore_sigint
    )
    try:
        futures = {pool.submit(run_task, setup, profile, c.id, s): (c, s) for c, s in tasks}
        for fut in concurrent.futures.as_completed(futures):
            c, s = futures[fut]
            on_result(c, s, _result(c, s, fut.result()))
    except KeyboardInterrupt:
        _stop_pool(pool)
        return True
    except concurrent.futures.process.BrokenProcessPool as exc:
        _stop_pool(pool)
        raise WorkerError(f"a worker process died: {exc}") from exc
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)
    return False


def _result(c: Claim, seed: int, wire: Any) -> Result:
    if isinstance(wire, BaseException):  # pragma: no cover - dask hands errors back as values
        raise wire
    return Result(claim=c, **wire)


def connect(address: str) -> Any:
    """A ``distributed.Client`` for the scheduler at ``address``.

    Raises
    ------
    WorkerError
        When dask.distributed is not installed or the scheduler cannot be reached.
    """
    try:
        from distributed import Client
    except ImportError:
        raise WorkerError(
            "--scheduler needs dask.distributed: pip install 'mltheory[distributed]'"
        ) from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError) as exc:
        msg = " ".join(str(exc).split()) or type(exc).__name__
        raise WorkerError(f"cannot reach the dask scheduler at {address!r}: {msg}") from None


def _run_dask(tasks: Sequence[Task], profile: str, client: Any, setup: WorkerSetup,
              on_result: OnResult) -> bool:
    from distributed import as_completed

    token = uuid.uuid4().hex[:8]
    futures = {}
    for c, s in tasks:
        fut = client.submit(run_task, setup, profile, c.id, s, pure=False,
                            key=f"mltheory-{token}-{c.id}-{s}")
        futures[fut] = (c, s)
    try:
        for fut in as_completed(list(futures)):
            c, s = futures[fut]
            on_result(c, s, _result(c, s, fut.result()))
    except KeyboardInterrupt:
        client.cancel(list(futures))
        return True
    except BaseException:
        client.cancel(list(futures))
        raise
    return False


def execute(
    tasks: Sequence[Task],
    *,
    profile: str,
    on_result: OnResult,
    jobs: int = 1,
    scheduler: Any = None,
    setup: WorkerSetup | None = None,
) -> bool:
    """Check every (claim, seed) in ``tasks`` in worker processes or on a dask cluster,
    calling ``on_result`` in the parent as each finishes (in completion order).

    ``scheduler`` is a dask scheduler address or a ``distributed.Client``; without it,
    ``jobs`` local worker processes are used. Returns True when interrupted by Ctrl-C
    (the results already handed to ``on_result`` stand).
    """
    if setup is None:
        setup = default_setup(c for c, _ in tasks)
    if not tasks:
        return False
    if scheduler is None:
        return _run_pool(tasks, profile, jobs, setup, on_result)
    client = connect(scheduler) if isinstance(scheduler, str) else scheduler
    try:
        return _run_dask(tasks, profile, client, setup, on_result)
    finally:
        if isinstance(scheduler, str):
            client.close()


def default_setup(claims: Any, modules: Sequence[str] = ()) -> WorkerSetup:
    """The built-in claims and entry points, ``modules``, and every module that defines
    one of ``claims`` (so claims registered from anywhere importable are found)."""
    names = list(modules)
    for c in claims:
        if c.module not in names and c.module not in ("?", "__main__"):
            names.append(c.module)
    return WorkerSetup(modules=tuple(names), sys_path=(os.getcwd(),))

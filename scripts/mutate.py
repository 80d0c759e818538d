"""Mutation testing: plant small bugs in ``algorithms/`` and see which ones the claims catch.

Usage (from the repository root)::

    python scripts/mutate.py --family linear --n 20 --seed 0          # claims, then tests
    python scripts/mutate.py --family svm --n 10 --no-tests           # claims alone
    python scripts/mutate.py --module algorithms/linear/_ridge.py --n 5
    python scripts/mutate.py --family trees --list                    # the sites only

Each *mutant* changes one site of one module of ``algorithms/<family>/`` (operators:
comparison swaps, ``+``/``-`` and ``*``/``/`` swaps, numeric constants, a dropped unary
minus or ``not``, ``and``/``or``, flipped booleans, ``range(n)`` -> ``range(n - 1)``,
changed defaults, ``return x`` -> ``return 0.5 * x``, a statement of a loop body
deleted, ``axis=0``/``axis=1`` swapped, ``break`` removed). Docstrings, ``__all__``,
annotations, ``raise`` statements, warnings and the tests of ``if ...: raise``
(validation) are never mutated. ``--n`` mutants are sampled per family with ``--seed``.

A *baseline* run of the unmutated code records each claim's verdict and which functions
of ``algorithms/`` it calls (a trace of Python calls). A mutant then runs, in a fresh
process whose ``algorithms`` package is a mutated copy, only the claims that call the
mutated function (for a module-level site: every claim that enters the module), the
fastest first, and stops at the first verdict that differs from the baseline: the mutant
is *killed by the claims*. A crash also kills it, and so does a timeout that repeats
with four times the budget (a loaded machine can slow a sound run past the first
budget; the retry keeps that from counting as a kill). A mutant that no claim
executes is a survivor without a run. Survivors then run the family's tests (``pytest
tests/<family> -x``); a failure kills them *by the tests*.

Output: the score per family (killed by claims alone, by claims + tests) and the
survivors with file:line, the mutation and an empty judgement column, as Markdown
(``--markdown``, default stdout) and JSON (``--json``). Judge each survivor (equivalent
mutant, or a gap and the claim that now closes it) in ``docs/mutation/<family>.md``.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import copy
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: What a run snapshots at its start (the working tree may change while mutants run).
SNAPSHOT = ("algorithms", "properties", "proofs", "mltheory", "tests", "pyproject.toml")
#: Where the code is read from: the repository, or the run's snapshot of it.
SOURCE_ROOT = REPO
#: The packages a baseline hashes: a change in any of them invalidates a cached baseline.
HASHED = ("algorithms", "properties", "proofs", "mltheory")
#: Seconds a mutant's claims may take, beyond this many times the baseline's.
TIMEOUT_FACTOR, TIMEOUT_SLACK, TIMEOUT_RETRY = 3.0, 30.0, 4.0
#: Written into the copy; refuses to test anything but the copy's ``algorithms``.
GUARD_PLUGIN = "_mutation_guard"
GUARD_MARK = "MUTATION-GUARD: wrong algorithms package"

# ---------------------------------------------------------------------------
# Mutation sites
# ---------------------------------------------------------------------------

_COMPARE_SWAPS = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
}
_ARITH_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
#: Calls whose arguments are validation or messages, never mutated.
_SKIPPED_CALL = re.compile(
    r"^(_?check_\w*|_?validate_\w*|make_rng|warn|warnings\.warn|\w*Error|\w*Warning"
    r"|isinstance|issubclass|print|getattr|hasattr)$"
)
#: Functions left alone: validation helpers and scikit-learn's tags and reprs.
_UNMUTATED_FUNCTION = re.compile(
    r"^(_?check_\w*|_?validate_\w*|__sklearn_tags__|__repr__|__str__)$"
)
#: Return annotations of functions whose return value is scaled by the return operator.
_NUMERIC_RETURN = re.compile(r"^(float|np\.ndarray|ndarray|np\.floating|numpy\.ndarray)$")


@dataclass(frozen=True)
class Site:
    """One mutation: replace bytes ``start:end`` of ``path`` by ``text``."""

    path: str  # repository-relative, e.g. "algorithms/linear/_ridge.py"
    index: int  # position among the module's sites
    line: int
    op: str
    before: str
    after: str
    function: int | None  # first line of the enclosing function's code, None at module level
    qualname: str
    start: int
    end: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}:{self.op}#{self.index}"


def _call_name(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        base = f.value.id if isinstance(f.value, ast.Name) else ""
        return f"{base}.{f.attr}" if base == "warnings" else f.attr
    return ""


def _raises_only(body: list[ast.stmt]) -> bool:
    return bool(body) and all(isinstance(s, ast.Raise) for s in body)


def _first_line(node: ast.AST) -> int:
    lines = [node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]
    return min(lines)


def _numeric_constant_variants(value: float) -> list[object]:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return []
    kind = type(value)
    if value == 0:
        return [kind(1)]
    if value == 1:
        return [kind(0), kind(2)]
    if value == 2:
        return [kind(1), kind(3)]
    half = value // 2 if isinstance(value, int) else value / 2
    return [v for v in (value + 1, half) if v != value]


class _SiteFinder(ast.NodeVisitor):
    """Collects (node, op, replacement node or text) in a fixed walk order."""

    def __init__(self) -> None:
        self.found: list[tuple[ast.AST, str, object, int | None, str]] = []
        self.function: list[tuple[int, str, ast.AST]] = []
        self.public_defaults: set[int] = set()

    # context --------------------------------------------------------------
    def _add(self, node: ast.AST, op: str, replacement: object) -> None:
        func = self.function[-1] if self.function else None
        self.found.append(
            (node, op, replacement, func[0] if func else None, func[1] if func else "<module>")
        )

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if _UNMUTATED_FUNCTION.match(node.name):
            return
        for d in node.decorator_list:
            self.visit(d)
        outer = self.function[-1][1] + "." if self.function else ""
        self.function.append((_first_line(node), outer + node.name, node))
        public = not node.name.startswith("_") or node.name == "__init__"
        defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        for d in defaults:
            if public:
                self.public_defaults.add(id(d))
            self.visit(d)
        for stmt in node.body:
            self.visit(stmt)
        self.function.pop()

    visit_FunctionDef = _visit_function  # noqa: N815
    visit_AsyncFunctionDef = _visit_function  # noqa: N815

    def visit_Lambda(self, node: ast.Lambda) -> None:  # noqa: N802
        outer = self.function[-1][1] + "." if self.function else ""
        self.function.append((node.lineno, outer + "<lambda>", node))
        self.generic_visit(node)
        self.function.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:  # noqa: N802
        for stmt in node.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # docstring
            self.visit(stmt)

    # never mutated --------------------------------------------------------
    def visit_Raise(self, node: ast.Raise) -> None:  # noqa: N802
        return

    def visit_Assert(self, node: ast.Assert) -> None:  # noqa: N802
        return

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:  # noqa: N802
        return

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:  # noqa: N802
        if node.value is not None:
            self.visit(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:  # noqa: N802
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        self.generic_visit(node)

    def visit_Expr(self, node: ast.Expr) -> None:  # noqa: N802
        if isinstance(node.value, ast.Constant):
            return  # docstring or bare constant
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:  # noqa: N802
        if not _raises_only(node.body):
            self.visit(node.test)  # the test of a validation `if ...: raise` stays
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        name = _call_name(node)
        if _SKIPPED_CALL.match(name):
            return
        if name == "range" and 1 <= len(node.args) <= 3:
            new = copy.deepcopy(node)
            stop = 0 if len(node.args) == 1 else 1
            new.args[stop] = ast.BinOp(new.args[stop], ast.Sub(), ast.Constant(1))
            self._add(node, "range", new)
        for kw in node.keywords:
            v = kw.value
            if kw.arg == "axis" and isinstance(v, ast.Constant) and v.value in (0, 1):
                if not isinstance(v.value, bool):
                    self._add(v, "axis", ast.Constant(1 - v.value))
                continue
            self.visit(v)
        self.visit(node.func)
        for a in node.args:
            self.visit(a)

    # operators ------------------------------------------------------------
    def visit_Compare(self, node: ast.Compare) -> None:  # noqa: N802
        for i, op in enumerate(node.ops):
            swap = _COMPARE_SWAPS.get(type(op))
            if swap is not None:
                new = copy.deepcopy(node)
                new.ops[i] = swap()
                self._add(node, "compare", new)
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:  # noqa: N802
        swap = _ARITH_SWAPS.get(type(node.op))
        texty = any(
            isinstance(s, ast.JoinedStr)
            or (isinstance(s, ast.Constant) and isinstance(s.value, str))
            for s in (node.left, node.right)
        )
        if swap is not None and not texty:
            new = copy.deepcopy(node)
            new.op = swap()
            self._add(node, "arithmetic", new)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:  # noqa: N802
        swap = _ARITH_SWAPS.get(type(node.op))
        if swap is not None:
            new = copy.deepcopy(node)
            new.op = swap()
            self._add(node, "arithmetic", new)
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:  # noqa: N802
        if isinstance(node.op, ast.USub):
            self._add(node, "unary-minus", node.operand)
        elif isinstance(node.op, ast.Not):
            self._add(node, "not", node.operand)
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:  # noqa: N802
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self._add(node, "and-or", new)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:  # noqa: N802
        op = "default" if id(node) in self.public_defaults else "constant"
        if isinstance(node.value, bool):
            self._add(node, op if op == "default" else "bool", ast.Constant(not node.value))
            return
        for v in _numeric_constant_variants(node.value):
            self._add(node, op, ast.Constant(v))

    def visit_Return(self, node: ast.Return) -> None:  # noqa: N802
        func = self.function[-1][2] if self.function else None
        returns = getattr(func, "returns", None)
        text = ast.unparse(returns).strip("'\"") if returns is not None else ""
        if node.value is not None and _NUMERIC_RETURN.match(text):
            scaled = ast.BinOp(ast.Constant(0.5), ast.Mult(), node.value)
            self._add(node.value, "return-scale", scaled)
        self.generic_visit(node)

    def _loop(self, node: ast.For | ast.While) -> None:
        for stmt in node.body:
            deletable = isinstance(stmt, ast.AugAssign) or (
                isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            )
            if deletable and not (
                isinstance(stmt, ast.Expr) and _SKIPPED_CALL.match(_call_name(stmt.value))
            ):
                self._add(stmt, "delete", "pass")
        self.generic_visit(node)

    visit_For = _loop  # noqa: N815
    visit_While = _loop  # noqa: N815

    def visit_Break(self, node: ast.Break) -> None:  # noqa: N802
        self._add(node, "break", "pass")

    def visit_arg(self, node: ast.arg) -> None:  # annotations are never mutated
        return


def _line_offsets(data: bytes) -> list[int]:
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    return starts


def _render(replacement: object, node: ast.AST) -> str:
    if isinstance(replacement, str):
        return replacement
    text = ast.unparse(replacement)  # type: ignore[arg-type]
    return text if isinstance(node, ast.stmt) else f"({text})"


def site_ok(source: str, site: Site, original: str | None = None) -> bool:
    """Whether the mutant compiles and differs from the module (``original``: its
    ``ast.dump``, if already computed)."""
    mutated = apply_site(source, site)
    try:
        if ast.dump(ast.parse(mutated)) == (original or ast.dump(ast.parse(source))):
            return False
        compile(mutated, site.path, "exec")
    except SyntaxError:
        return False
    return True


def find_sites(source: str, path: str, *, check: bool = True) -> list[Site]:
    """Every mutation site of a module's source; with ``check``, each one checked to
    compile and to differ (:func:`site_ok`; a run checks only the sampled ones)."""
    tree = ast.parse(source)
    finder = _SiteFinder()
    finder.visit(tree)
    data = source.encode()
    starts = _line_offsets(data)
    original = ast.dump(tree) if check else None
    sites: list[Site] = []
    for node, op, replacement, func, qualname in finder.found:
        start = starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        text = _render(replacement, node)
        before = data[start:end].decode()
        sites.append(
            Site(
                path=path,
                index=len(sites),
                line=node.lineno,  # type: ignore[attr-defined]
                op=op,
                before=" ".join(before.split())[:120],
                after=" ".join(text.split())[:120],
                function=func,
                qualname=qualname,
                start=start,
                end=end,
                text=text,
            )
        )
    if check:
        sites = [s for s in sites if site_ok(source, s, original)]
    return sites


def apply_site(source: str, site: Site) -> str:
    """The module's source with ``site`` mutated."""
    data = source.encode()
    return (data[: site.start] + site.text.encode() + data[site.end :]).decode()


def family_files(family: str) -> list[Path]:
    """The modules of a family that mutation targets (``__init__`` only re-exports)."""
    folder = SOURCE_ROOT / "algorithms" / family
    return sorted(p for p in folder.glob("*.py") if p.name != "__init__.py")


def all_families() -> list[str]:
    return sorted(
        p.name
        for p in (SOURCE_ROOT / "algorithms").iterdir()
        if p.is_dir() and not p.name.startswith("_") and (p / "__init__.py").exists()
    )


def sample_sites(
    sites: Sequence[Site], n: int, seed: int, family: str, valid=None
) -> list[Site]:
    """``n`` sites drawn without replacement, the same for the same seed and site list;
    ``valid(site)`` (optional) rejects a draw, which is replaced by the next one."""
    ordered = sorted(sites, key=lambda s: (s.path, s.index))
    random.Random(f"{seed}:{family}").shuffle(ordered)
    chosen: list[Site] = []
    for s in ordered:
        if len(chosen) == n:
            break
        if valid is None or valid(s):
            chosen.append(s)
    return sorted(chosen, key=lambda s: (s.path, s.index))


# ---------------------------------------------------------------------------
# Verdicts: what kills a mutant
# ---------------------------------------------------------------------------


def first_difference(
    baseline: dict[str, str], mutant: dict[str, str], expected: Sequence[str] = ()
) -> str | None:
    """The first claim whose verdict differs (``"id: VERIFIED -> FAILED"``), or None.

    Claims are compared in the order of ``expected`` (default: sorted), then any other
    claim of the mutant's run. A claim the mutant's run did not reach (it stops at the
    first difference) is no difference; a claim absent from the baseline is one.
    """
    order = list(expected) + sorted(set(mutant) - set(expected))
    for cid in order:
        if cid in mutant and baseline.get(cid) != mutant[cid]:
            return f"{cid}: {baseline.get(cid, 'absent')} -> {mutant[cid]}"
    return None


# ---------------------------------------------------------------------------
# Worker: runs in the process whose `algorithms` is the copy
# ---------------------------------------------------------------------------


def _worker(args: argparse.Namespace) -> int:
    root = Path(args.root).resolve()
    import algorithms

    if not Path(algorithms.__file__).resolve().is_relative_to(root):
        print(f"{GUARD_MARK}: {algorithms.__file__} is not under {root}", file=sys.stderr)
        return 3
    import threading

    from mltheory.runner import discover, run_claim

    spec = json.loads(Path(args.spec).read_text())
    import properties

    source = Path(spec["source_root"]).resolve()
    if not Path(properties.__file__).resolve().is_relative_to(source):
        print(f"{GUARD_MARK}: {properties.__file__} is not under {source}", file=sys.stderr)
        return 3
    touched: dict[str, set[tuple[str, int]]] = {}
    current = ["<import>"]
    prefix = str(root) + os.sep

    def tracer(frame, event, arg):
        name = frame.f_code.co_filename
        if name.startswith(prefix):
            touched.setdefault(current[0], set()).add(
                (name[len(prefix) :], frame.f_code.co_firstlineno)
            )
        return None

    if spec["trace"]:
        sys.settrace(tracer)
        threading.settrace(tracer)
    claims = {c.id: c for c in discover()}
    if "families" in spec:  # the baseline: every claim of these families
        spec["claims"] = sorted(
            cid
            for cid, c in claims.items()
            if c.module.split(".")[0] in ("properties", "proofs")
            and c.module.split(".")[1:2] and c.module.split(".")[1] in spec["families"]
        )
    baseline = spec.get("baseline", {})
    out: dict[str, object] = {"verdicts": {}, "durations": {}, "difference": None}
    for cid in spec["claims"]:
        current[0] = cid
        start = time.perf_counter()
        result = run_claim(claims[cid], profile=spec["profile"], seed=spec["seed"])
        out["verdicts"][cid] = result.verdict.value  # type: ignore[index]
        out["durations"][cid] = time.perf_counter() - start  # type: ignore[index]
        if baseline and baseline.get(cid) != result.verdict.value:
            out["difference"] = f"{cid}: {baseline.get(cid)} -> {result.verdict.value}"
            break
    sys.settrace(None)
    threading.settrace(None)  # type: ignore[arg-type]
    out["touched"] = {k: sorted(v) for k, v in touched.items()}
    Path(args.out).write_text(json.dumps(out))
    return 0


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """What happened to one mutant."""

    site: Site
    status: str  # killed-claims, killed-timeout, killed-crash, killed-tests, survived
    detail: str = ""
    claims_run: int = 0
    seconds: float = 0.0
    not_executed: bool = False
    tests: str = ""  # "", "killed", "survived", "timeout"

    def as_dict(self) -> dict[str, object]:
        d = asdict(self)
        site = d.pop("site")
        for k in ("start", "end", "text"):
            site.pop(k)
        return {"id": self.site.id, **site, **d}


def snapshot(where: Path) -> Path:
    """Copy the code a run reads (:data:`SNAPSHOT`) to ``where``; returns ``where``."""
    for name in SNAPSHOT:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, where / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy2(src, where / name)
    return where


def _env(copy_root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(copy_root), str(SOURCE_ROOT)])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # numba kernels run as plain Python: the tracer sees which claims execute a kernel's
    # lines, and a mutant inside a kernel takes effect without an on-disk cache in the way
    env["NUMBA_DISABLE_JIT"] = "1"
    env.pop("PYTHONSAFEPATH", None)
    return env


def _make_copy(where: Path, site: Site | None) -> Path:
    root = where / "tree"
    shutil.copytree(
        SOURCE_ROOT / "algorithms", root / "algorithms",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (root / f"{GUARD_PLUGIN}.py").write_text(
        "import sys\nfrom pathlib import Path\n\n\n"
        "def pytest_collection_finish(session):\n"
        "    import algorithms\n"
        f"    root = Path({str(root)!r})\n"
        "    if not Path(algorithms.__file__).resolve().is_relative_to(root):\n"
        f"        print({GUARD_MARK!r}, algorithms.__file__, file=sys.stderr)\n"
        "        raise SystemExit(3)\n"
    )
    if site is not None:
        target = root / site.path
        target.write_text(apply_site(target.read_text(), site))
    return root


#: Process groups of the running workers, killed if the run itself is stopped.
_LIVE: set[int] = set()


def _kill_live() -> None:
    for pid in list(_LIVE):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


def _run_process(cmd: list[str], env: dict, cwd: Path, timeout: float) -> tuple[int | None, str]:
    """Run in a new session; kill the whole group on timeout. (returncode or None, stderr)."""
    proc = subprocess.Popen(
        cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, text=True,
    )
    _LIVE.add(proc.pid)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, ""
    finally:
        _LIVE.discard(proc.pid)
    if GUARD_MARK in err:
        raise SystemExit(f"mutate: the copy's algorithms package was not the one imported:\n{err}")
    return proc.returncode, (out + err)[-2000:]


def _run_worker(root: Path, spec: dict, timeout: float) -> tuple[dict | None, str]:
    spec_path, out_path = root / "spec.json", root / "out.json"
    spec_path.write_text(json.dumps({**spec, "source_root": str(SOURCE_ROOT)}))
    cmd = [
        sys.executable, "-P", str(Path(__file__).resolve()), "_worker",
        "--root", str(root), "--spec", str(spec_path), "--out", str(out_path),
    ]
    code, text = _run_process(cmd, _env(root), root, timeout)
    if code is None:
        return None, "timeout"
    if code != 0 or not out_path.exists():
        return None, f"crash (exit {code}): {text.strip().splitlines()[-1] if text.strip() else ''}"
    return json.loads(out_path.read_text()), ""


def importers(family: str) -> set[str]:
    """Families whose claims or algorithms import ``algorithms.<family>``."""
    pattern = re.compile(rf"\balgorithms\.{family}\b")
    found = {family}
    for top in ("properties", "proofs", "algorithms"):
        for path in (SOURCE_ROOT / top).glob("*/*.py"):
            other = path.parent.name
            if other != family and pattern.search(path.read_text(errors="replace")):
                found.add(other)
    return found


def _tree_hash(extra: str) -> str:
    h = hashlib.sha256(extra.encode())
    for top in HASHED:
        for path in sorted((SOURCE_ROOT / top).rglob("*.py")):
            h.update(str(path.relative_to(SOURCE_ROOT)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:20]


def baseline(families: list[str], args: argparse.Namespace, log) -> dict:
    """Verdicts, durations and traced functions of the unmutated code, for every claim
    of ``families`` (cached by the code's hash)."""
    def cached(fams: list[str]) -> Path:
        key = _tree_hash(json.dumps([sorted(fams), args.seed, args.profile]))
        return Path(args.cache) / f"baseline-{key}.json"

    cache = cached(families)
    for path in (cache, cached(all_families())):  # a baseline of every family serves all
        if path.exists():
            log(f"baseline: cached ({path})")
            return json.loads(path.read_text())
    log(f"baseline: the claims of {', '.join(families)}, traced (once per code state) ...")
    with tempfile.TemporaryDirectory(prefix="mutate-base-") as tmp:
        root = _make_copy(Path(tmp), None)
        spec = {"families": families, "trace": True, "profile": args.profile, "seed": args.seed}
        result, problem = _run_worker(root, spec, args.baseline_timeout)
    if result is None:
        raise SystemExit(f"mutate: the baseline run failed: {problem}")
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(result))
    log(f"baseline: {len(result['verdicts'])} claims in {sum(result['durations'].values()):.0f} s")
    return result


def claims_for(site: Site, base: dict) -> list[str]:
    """Claims that call the mutated function (module-level sites: that enter the module),
    fastest first; none when no claim executes it."""
    rel = site.path
    import_time = {tuple(t) for t in base["touched"].get("<import>", [])}
    key = (rel, site.function) if site.function is not None else None
    by_claim = {
        cid: {tuple(t) for t in touched}
        for cid, touched in base["touched"].items()
        if cid != "<import>"
    }
    if key is not None and any(key in t for t in by_claim.values()):
        hit = [cid for cid, t in by_claim.items() if key in t]
    elif key is None or key in import_time:
        hit = [cid for cid, t in by_claim.items() if any(f == rel for f, _ in t)]
    else:
        hit = []
    durations = base["durations"]
    return sorted(hit, key=lambda c: (durations.get(c, 0.0), c))


def run_mutant(site: Site, base: dict, args: argparse.Namespace) -> Outcome:
    ids = claims_for(site, base)
    if not ids:
        return Outcome(site, "survived", "no claim executes this code", not_executed=True)
    budget = args.timeout or TIMEOUT_FACTOR * sum(base["durations"][c] for c in ids) + TIMEOUT_SLACK
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mutate-") as tmp:
        root = _make_copy(Path(tmp), site)
        spec = {
            "claims": ids, "trace": False, "profile": args.profile, "seed": args.seed,
            "baseline": {c: base["verdicts"][c] for c in ids},
        }
        result, problem = _run_worker(root, spec, budget)
        if problem == "timeout":  # confirm: a slow machine is not a slow mutant
            budget *= TIMEOUT_RETRY
            result, problem = _run_worker(root, spec, budget)
    seconds = time.perf_counter() - start
    if result is None:
        status = "killed-timeout" if problem == "timeout" else "killed-crash"
        detail = (f"claims timed out at {budget / TIMEOUT_RETRY:.0f} s and again at {budget:.0f} s"
                  if problem == "timeout" else problem)
        return Outcome(site, status, detail, len(ids), seconds)
    diff = result["difference"] or first_difference(base["verdicts"], result["verdicts"], ids)
    if diff:
        return Outcome(site, "killed-claims", diff, len(result["verdicts"]), seconds)
    return Outcome(site, "survived", "", len(result["verdicts"]), seconds)


def run_tests(outcome: Outcome, family: str, args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="mutate-tests-") as tmp:
        root = _make_copy(Path(tmp), outcome.site)
        cmd = [
            sys.executable, "-P", "-m", "pytest", f"tests/{family}", "-x", "-q", "-n", "0",
            "-p", "no:cacheprovider", "-p", GUARD_PLUGIN, "--import-mode=append",
        ]
        code, text = _run_process(cmd, _env(root), SOURCE_ROOT, args.test_timeout)
    if code is None:
        outcome.tests, outcome.status = "timeout", "killed-tests"
        outcome.detail = f"tests took longer than {args.test_timeout:.0f} s"
    elif code in (0, 5):
        outcome.tests = "survived"
    else:
        outcome.tests, outcome.status = "killed", "killed-tests"
        failed = [ln for ln in text.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        outcome.detail = failed[0][:200] if failed else f"pytest exit {code}"


@dataclass
class FamilyResult:
    family: str
    sites: int
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, *statuses: str) -> int:
        return sum(o.status in statuses for o in self.outcomes)

    def summary(self) -> dict[str, object]:
        n = len(self.outcomes)
        by_claims = self.count("killed-claims", "killed-timeout", "killed-crash")
        by_tests = self.count("killed-tests")
        return {
            "family": self.family,
            "sites": self.sites,
            "mutants": n,
            "killed_by_claims": by_claims,
            "killed_by_tests_only": by_tests,
            "survivors": self.count("survived"),
            "not_executed_by_claims": sum(o.not_executed for o in self.outcomes),
            "score_claims": by_claims / n if n else None,
            "score_claims_and_tests": (by_claims + by_tests) / n if n else None,
        }


def _pct(x: object) -> str:
    return "–" if x is None else f"{100 * float(x):.0f} %"  # type: ignore[arg-type]


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`"


def markdown(results: list[FamilyResult], args: argparse.Namespace, tests: bool) -> str:
    lines = [
        f"# Mutation testing (seed {args.seed}, n = {args.n} per family, profile {args.profile})",
        "",
        "| family | sites | mutants | killed by claims | by claims + tests | survivors "
        "| not executed by any claim |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        s = r.summary()
        killed = int(s["killed_by_claims"]) + int(s["killed_by_tests_only"])  # type: ignore[call-overload]
        both = f"{killed} ({_pct(s['score_claims_and_tests'])})"
        lines.append(
            f"| {r.family} | {s['sites']} | {s['mutants']} | {s['killed_by_claims']} "
            f"({_pct(s['score_claims'])}) | {both if tests else '(tests not run)'} "
            f"| {s['survivors']} | {s['not_executed_by_claims']} |"
        )
    for r in results:
        survivors = [o for o in r.outcomes if o.status == "survived" or o.status == "killed-tests"]
        if not survivors:
            continue
        lines += [
            "",
            f"## {r.family}: survivors of the claims",
            "",
            "| site | function | mutation | claims run | tests | judgement |",
            "|---|---|---|---|---|---|",
        ]
        for o in survivors:
            s = o.site
            run = "none executes it" if o.not_executed else str(o.claims_run)
            lines.append(
                f"| {s.path}:{s.line} ({s.op}) | {s.qualname} | {_cell(s.before)} → "
                f"{_cell(s.after)} | {run} | {o.tests or '–'} | |"
            )
    return "\n".join(lines) + "\n"


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="scripts/mutate.py",
        description="Mutate algorithms/ and report which mutants the claims (and tests) kill.",
    )
    p.add_argument("--family", action="append", default=[],
                   help="a family to mutate (repeatable; default: all)")
    p.add_argument("--module", action="append", default=[],
                   help="mutate only this file, e.g. algorithms/linear/_ridge.py (repeatable)")
    p.add_argument("--n", type=int, default=20, help="mutants sampled per family (default 20)")
    p.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="mutants run at once (default 1)")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds per mutant's claims (default: 3x their baseline time + 30)")
    p.add_argument("--test-timeout", type=float, default=900.0,
                   help="seconds for a survivor's family tests (default 900)")
    p.add_argument("--baseline-timeout", type=float, default=3600.0,
                   help="seconds for the traced baseline run (default 3600)")
    p.add_argument("--no-tests", action="store_true", help="claims alone: skip the tests")
    p.add_argument("--profile", default="quick", help="claims' profile (default quick)")
    p.add_argument("--claim-seed", dest="claim_seed", type=int, default=None,
                   help="the claims' global seed (default: mltheory's default)")
    p.add_argument("--json", help="write the results as JSON here")
    p.add_argument("--markdown", help="write the Markdown report here (default: stdout)")
    p.add_argument("--list", action="store_true", help="list the sampled sites and exit")
    p.add_argument("--source", default=None,
                   help="a copy of the repository to mutate instead of a snapshot of this "
                   "working tree, e.g. another commit: git archive REV | tar -x -C DIR")
    p.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "mltheory-mutate"),
                   help="where traced baselines are cached (keyed by the code's hash)")
    return p.parse_args(argv)


def _repo_relative(path: str) -> Path:
    p = Path(path)
    for base in (REPO, SOURCE_ROOT):
        try:
            return p.resolve().relative_to(base)
        except ValueError:
            continue
    return p


def _selection(args: argparse.Namespace) -> dict[str, list[Site]]:
    """Sampled sites per family."""
    modules = [SOURCE_ROOT / _repo_relative(m) for m in args.module]
    families = args.family or sorted({m.parent.name for m in modules}) or all_families()
    chosen: dict[str, list[Site]] = {}
    for family in families:
        files = family_files(family)
        if not files:
            raise SystemExit(f"mutate: no modules in algorithms/{family}")
        if modules:
            files = [f for f in files if f in modules]
        sites = [
            s
            for f in files
            for s in find_sites(f.read_text(), str(f.relative_to(SOURCE_ROOT)), check=False)
        ]
        chosen[family] = sites
    return chosen


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "_worker":
        w = argparse.ArgumentParser()
        for flag in ("--root", "--spec", "--out"):
            w.add_argument(flag, required=True)
        return _worker(w.parse_args(argv[1:]))
    args = _parse(argv)
    global SOURCE_ROOT
    # stopped (kill, Ctrl-C): end the workers' process groups and remove the copies
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    with tempfile.TemporaryDirectory(prefix="mutate-snapshot-") as tmp:
        SOURCE_ROOT = Path(args.source).resolve() if args.source else snapshot(Path(tmp))
        try:
            return _main(args)
        finally:
            _kill_live()
            SOURCE_ROOT = REPO


def _main(args: argparse.Namespace) -> int:
    def log(msg: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)

    from mltheory.rng import DEFAULT_SEED

    all_sites = _selection(args)
    sources: dict[str, str] = {}

    def valid(site: Site) -> bool:
        if site.path not in sources:
            sources[site.path] = (SOURCE_ROOT / site.path).read_text()
        return site_ok(sources[site.path], site)

    sampled = {
        f: sample_sites(s, args.n, args.seed, f, valid) for f, s in all_sites.items()
    }
    if args.list:
        for family, sites in sampled.items():
            print(f"# {family}: {len(sites)} of {len(all_sites[family])} sites")
            for s in sites:
                print(f"{s.id}  {s.qualname}: {s.before} -> {s.after}")
        return 0
    claim_seed = args.claim_seed if args.claim_seed is not None else DEFAULT_SEED
    run_args = argparse.Namespace(**{**vars(args), "seed": claim_seed})
    wanted = {f for family in sampled for f in importers(family)}
    base = baseline(sorted(wanted), run_args, log)
    results = []
    for family, sites in sampled.items():
        fr = FamilyResult(family, len(all_sites[family]))
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            futures = {pool.submit(run_mutant, s, base, run_args): s for s in sites}
            try:
                for fut in concurrent.futures.as_completed(futures):
                    o = fut.result()
                    fr.outcomes.append(o)
                    log(f"{family} [{len(fr.outcomes)}/{len(sites)}] {o.site.id}: {o.status} "
                        f"{o.detail[:100]} ({o.seconds:.0f} s, {o.claims_run} claims)")
            except BaseException:
                for f in futures:
                    f.cancel()
                _kill_live()  # before the pool waits for its threads
                raise
        fr.outcomes.sort(key=lambda o: (o.site.path, o.site.index))
        if not args.no_tests:
            for o in [o for o in fr.outcomes if o.status == "survived"]:
                run_tests(o, family, args)
                log(f"{family} tests on {o.site.id}: {o.tests} {o.detail[:100]}")
        results.append(fr)
        _write(results, args, claim_seed, final=False)  # a long run keeps what it has
    _write(results, args, claim_seed, final=True)
    return 0


def _write(
    results: list[FamilyResult], args: argparse.Namespace, claim_seed: int, *, final: bool
) -> None:
    """The Markdown (stdout unless --markdown, and only when final) and JSON reports."""
    text = markdown(results, args, tests=not args.no_tests)
    if args.markdown:
        Path(args.markdown).write_text(text)
    elif final:
        print(text)
    if args.json:
        doc = {
            "seed": args.seed, "n": args.n, "profile": args.profile,
            "claim_seed": claim_seed, "tests": not args.no_tests, "complete": final,
            "families": [
                {**r.summary(), "results": [o.as_dict() for o in r.outcomes]} for r in results
            ],
        }
        Path(args.json).write_text(json.dumps(doc, indent=1))


if __name__ == "__main__":
    sys.exit(main())

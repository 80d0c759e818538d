"""The pocket code printed in note 000 §1.5, reproduced faithfully *including its bugs*.

This module exists so that the suite can exhibit the note's erratum: do not use
:class:`NotesPocket` as a pocket algorithm; use :class:`PocketPerceptron`.
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from ._pocket import PocketBase

__all__ = ["NotesPocket"]


class NotesPocket(PocketBase):
    """Deliberately faithful, deliberately buggy re-implementation of 000 §1.5's pocket code.

    Parameters
    ----------
    eta : float, default=1.0
        Step size; the note's code corresponds to ``eta = 1`` (it adds
        ``label_i * data_i``). Kept for API symmetry with :class:`PocketPerceptron`.
    max_iter : int, default=1000
        The note's ``max_iters``: the loop stops after this many iterations, each
        of which makes one update.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the generator replacing the note's global ``np.random``.
    w_init, b_init : initial weights and intercept (the note starts from its
        stored ``self.w, self.b``; zero by default here).

    Attributes
    ----------
    Same as :class:`PocketPerceptron`; here ``coef_``/``intercept_`` are the
    note's ``best_w``/``best_b`` and ``pocket_errors_[t]`` is the training mistake
    count of ``best_w`` after ``t`` iterations (entry 0: the initial weights).
    Because of bug (a) it is *not* non-increasing in general.

    Notes
    -----
    The three bugs, reproduced on purpose (000 §1.5 code, compared with the
    pocket algorithm of 002 "Pocket PLA"):

    (a) ``update`` replaces ``best_w`` when the candidate ``w_{t+1}`` makes at
        most as many mistakes as the *current* ``w_t``
        (``len(classify(tmp_w)) <= len(classify(self.w))``), not strictly fewer
        than the pocket ``best_w``; so the pocket can get worse.
    (b) the note draws a mistake with numpy's legacy ``randint(0, len(mistakes)-1)``
        (reproduced here with the seeded generator's ``integers``); the upper bound is
        exclusive, so the last mistake in index
        order is never chosen (with two mistakes the first is always chosen).
    (c) when exactly one mistake remains the code uses ``i = 0`` -- sample 0,
        whether or not it is the remaining mistake -- instead of that mistake.

    The mistake test is ``sign(w . x + b) * y <= 0``, i.e. ``y (w . x + b) <= 0``.

    References
    ----------
    000 §1.5 (the printed ``update``/``classify``/``pocket`` methods).
    """

    def fit(self, X: ArrayLike, y: ArrayLike) -> NotesPocket:
        """Run the note's pocket loop on ``(X, y)``; returns ``self`` holding ``best_w``."""
        run, max_iters, rng = self._prepare(X, y)
        w_hat = run.w_hat0.copy()
        best, best_t = w_hat.copy(), 0
        best_err = run.mistakes(best).size
        pocket_errors, current_errors = [best_err], [best_err]
        updates: list[int] = []
        history = [w_hat]
        iters = 0
        while True:
            iters += 1
            mistakes = run.mistakes(w_hat)
            if mistakes.size == 0:
                break
            if mistakes.size > 1:
                i = int(mistakes[rng.integers(0, mistakes.size - 1)])  # bug (b)
            else:
                i = 0  # bug (c)
            candidate = w_hat + run.steps[i]
            candidate_err = run.mistakes(candidate).size
            if candidate_err <= mistakes.size:  # bug (a): compares with current w
                best, best_err, best_t = candidate.copy(), candidate_err, iters
            w_hat = candidate
            updates.append(i)
            history.append(w_hat)
            pocket_errors.append(best_err)
            current_errors.append(candidate_err)
            if iters == max_iters:
                break
        self._store(best, best_t, history, updates, pocket_errors, current_errors)
        return self

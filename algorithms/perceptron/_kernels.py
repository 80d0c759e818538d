"""Compiled per-sample loops of the perceptron family (numba, cached on disk).

Each kernel runs the very loop of its pure-Python reference (``_primal``, ``_dual``,
``_pocket``) on prepared arrays and records what the reference records, in the same
order; ``tests/perceptron/test_compiled.py`` checks that both give identical runs on the
same data and visiting orders. Visiting orders are drawn outside the kernels, one
``rng.permutation(N)`` per pass exactly as the reference does, so seeded runs agree.
"""

from __future__ import annotations

import numpy as np

from algorithms._compiled import grown, grown_rows, kernel, row_dot

__all__ = ["dual_passes", "pla_passes", "pocket_iterations"]


@kernel
def pla_passes(Z, steps, order, n_passes, passes_left, w_hat, record, idx, margins, history,
               count, per_pass, n_pass):
    """Up to ``n_passes`` PLA passes visiting ``order``; stops after a clean pass.

    A visit of sample ``i`` is a mistake when ``Z[i] . w_hat <= 0`` (``Z_i = y_i x_hat_i``);
    then ``w_hat += steps[i]`` at once, and ``i``, the margin the test saw and (with
    ``record``) the new iterate are appended to ``idx``, ``margins`` and ``history`` (row
    ``count + 1``; row 0 is the start). ``per_pass`` gets the pass's update count.
    ``w_hat`` is updated in place; returns the possibly reallocated buffers, the new
    ``count`` and ``n_pass``, and whether a pass was clean. ``passes_left`` (the passes
    the run may still make, this call's included) only sizes the buffers.
    """
    n = order.shape[0]
    for k in range(n_passes):
        # A pass makes at most n updates: room for them first, none in the loop. When a
        # buffer must grow, it grows to the updates expected at the rate seen so far (at
        # most 16x at once): one large allocation instead of a chain of doublings, whose
        # fresh pages cost more than the loop itself on a long history.
        need = count + n  # entries of idx and margins; history needs one row more
        if idx.shape[0] < need or (record and history.shape[0] < need + 1):
            expected = need + (count // max(n_pass, 1)) * max(passes_left - k, 1)
            target = min(max(need, expected), max(need, 16 * idx.shape[0]))
            idx = grown(idx, target)  # each buffer is grown to the target if shorter
            margins = grown(margins, target)
            if record:
                history = grown_rows(history, target + 1)
        made = 0
        for p in range(n):
            i = order[p]
            margin = row_dot(Z, i, w_hat)
            if margin <= 0.0:
                idx[count] = i
                margins[count] = margin
                for j in range(w_hat.shape[0]):
                    w_hat[j] += steps[i, j]
                    if record:
                        history[count + 1, j] = w_hat[j]
                count += 1
                made += 1
        per_pass = grown(per_pass, n_pass + 1)
        per_pass[n_pass] = made
        n_pass += 1
        if made == 0:
            return idx, margins, history, per_pass, count, n_pass, True
    return idx, margins, history, per_pass, count, n_pass, False


@kernel
def dual_passes(G, y, eta, order, n_passes, kernel_part, b, counts, idx, count, per_pass,
                n_pass):
    """Up to ``n_passes`` dual-perceptron passes visiting ``order``.

    ``kernel_part[j] = sum_i alpha_i y_i G_ij`` is kept up to date (``+ eta y_i G[i, :]``
    per update) and ``b`` apart; a visit of ``i`` is a mistake when
    ``y_i (kernel_part[i] + b) <= 0``. Returns the buffers, ``b``, ``count``, ``n_pass``
    and whether a pass was clean (``kernel_part`` and ``counts`` updated in place).
    """
    n = G.shape[0]
    for _ in range(n_passes):
        idx = grown(idx, count + order.shape[0])  # room for the pass's updates
        made = 0
        for p in range(order.shape[0]):
            i = order[p]
            if y[i] * (kernel_part[i] + b) <= 0.0:
                step = eta * y[i]
                for j in range(n):
                    kernel_part[j] += step * G[i, j]
                b += step
                counts[i] += 1
                idx[count] = i
                count += 1
                made += 1
        per_pass = grown(per_pass, n_pass + 1)
        per_pass[n_pass] = made
        n_pass += 1
        if made == 0:
            return idx, per_pass, b, count, n_pass, True
    return idx, per_pass, b, count, n_pass, False


@kernel
def _mistakes(Z, w_hat, scores, out):
    """Fill ``out`` with the indices of the rows ``Z_i . w_hat <= 0``; return how many.

    The scores are one BLAS ``gemv`` (``np.dot`` into ``scores``), as ``Z @ w_hat`` is in
    the Python reference, so both see the same margins."""
    np.dot(Z, w_hat, scores)
    k = 0
    for i in range(Z.shape[0]):
        if scores[i] <= 0.0:
            out[k] = i
            k += 1
    return k


@kernel
def pocket_iterations(Z, steps, w_hat, max_iter, rng, history, idx, pocket_errors,
                      current_errors):
    """Pocket PLA (002): up to ``max_iter`` updates, each on a mistake drawn uniformly with
    ``rng.integers(0, m)`` among the ``m`` current mistakes (numba reproduces numpy's
    stream and leaves the generator in numpy's state); the pocket is replaced only on
    strictly fewer mistakes. ``w_hat`` is updated in place; the buffers grow as needed.
    Returns ``(pocket, pocket_t, T, history, idx, pocket_errors, current_errors)``."""
    dim = w_hat.shape[0]
    mistakes = np.empty(Z.shape[0], dtype=np.intp)
    scores = np.empty(Z.shape[0])
    m = _mistakes(Z, w_hat, scores, mistakes)
    pocket = np.empty(dim)
    for j in range(dim):
        pocket[j] = w_hat[j]
        history[0, j] = w_hat[j]
    pocket_err, pocket_t = m, 0
    pocket_errors[0] = m
    current_errors[0] = m
    t = 0
    while m > 0 and t < max_iter:
        i = mistakes[rng.integers(0, m)]
        idx = grown(idx, t + 1)
        idx[t] = i
        t += 1
        history = grown_rows(history, t + 1)
        for j in range(dim):
            w_hat[j] += steps[i, j]
            history[t, j] = w_hat[j]
        m = _mistakes(Z, w_hat, scores, mistakes)
        if m < pocket_err:
            for j in range(dim):
                pocket[j] = w_hat[j]
            pocket_err, pocket_t = m, t
        pocket_errors = grown(pocket_errors, t + 1)
        current_errors = grown(current_errors, t + 1)
        pocket_errors[t] = pocket_err
        current_errors[t] = m
    return pocket, pocket_t, t, history, idx, pocket_errors, current_errors

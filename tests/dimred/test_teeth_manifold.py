"""The manifold and metric-learning checks have teeth: each check body that a claim uses
refutes deliberately broken variants (a constant halved or scaled, a sign flipped, an
index off by one, a missing normalisation, a tampered record)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st
from sklearn.manifold import Isomap as SkIsomap

from algorithms.dimred import (
    Isomap,
    LLEWeights,
    LocallyLinearEmbedding,
    MDSResult,
    NeighbourhoodComponentsAnalysis,
    classical_mds,
    double_centering,
    lle_weights,
    mahalanobis_distance,
    nca_gradient,
    nca_probabilities,
    weighted_euclidean_distance,
)
from mltheory.symbolic import Derivation
from mltheory.testing import assert_holds, assert_refutes
from properties.dimred import isomap as iso_claims
from properties.dimred import lle as lle_claims
from properties.dimred import mds as mds_claims
from properties.dimred import metric as metric_claims
from properties.dimred import nca as nca_claims
from properties.dimred.strategies_manifold import (
    SEEDS,
    configurations,
    distance_matrix,
    labelled_problems,
    metric_matrices,
    metric_spaces,
    neighbourhoods,
)

# ---------------------------------------------------------------------------
# MDS
# ---------------------------------------------------------------------------


def test_inner_product_check_refutes_a_halved_square_norm():
    @given(Z=configurations(max_m=4))
    def check(Z):
        mds_claims.check_inner_product_identity(Z, square_norm=lambda z: 0.5 * (z @ z))

    assert_refutes(check)


def _centring(factor: float = -0.5, grand: float = 1.0, ddof: int = 0):
    def centring(D):
        D2 = np.asarray(D) ** 2
        m = D2.shape[0]
        row = D2.sum(axis=1) / (m - ddof)
        col = D2.sum(axis=0) / (m - ddof)
        return factor * (D2 - row[:, None] - col[None, :] + grand * row.mean())
    return centring


@pytest.mark.parametrize("broken", [_centring(factor=0.5), _centring(factor=-0.25),
                                    _centring(grand=0.0), _centring(ddof=1)],
                         ids=["sign", "half", "no-grand-mean", "m-1"])
def test_double_centering_check_refutes(broken):
    @given(Z=configurations(min_m=3, max_m=6))
    def check(Z):
        mds_claims.check_double_centering(Z, centring=broken)

    assert_refutes(check)
    assert_holds(lambda: mds_claims.check_double_centering(
        np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 3.0]]), centring=_centring()))


def _mds_variant(kind: str):
    def mds(D, n_components):
        B = double_centering(D)
        lam, V = np.linalg.eigh(B)
        order = np.argsort(lam) if kind == "smallest" else np.argsort(lam)[::-1]
        lam, V = lam[order][:n_components], V[:, order][:, :n_components]
        if kind == "abs":
            root = np.sqrt(np.abs(lam))
        elif kind == "no-sqrt":
            root = np.clip(lam, 0, None)
        elif kind == "scaled":
            root = 0.9 * np.sqrt(np.clip(lam, 0, None))
        else:
            root = np.sqrt(np.clip(lam, 0, None))
        return MDSResult(V * root, lam, V, 0)
    return mds


@pytest.mark.parametrize("kind", ["smallest", "no-sqrt", "scaled"])
def test_exact_embedding_check_refutes(kind):
    @given(Z=configurations(min_m=3, max_m=6))
    def check(Z):
        mds_claims.check_exact_embedding(distance_matrix(Z), min(Z.shape), mds=_mds_variant(kind))

    assert_refutes(check)


@pytest.mark.parametrize("kind", ["smallest", "abs", "scaled"])
def test_eckart_young_check_refutes(kind):
    @given(D=metric_spaces(), dp=st.integers(1, 9), seed=SEEDS)
    def check(D, dp, seed):  # d' up to m: negative eigenvalues are kept and clipped
        mds_claims.check_eckart_young(D, min(dp, D.shape[0]), seed, mds=_mds_variant(kind))

    assert_refutes(check)
    D = distance_matrix(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 1.0]]))
    assert_holds(lambda: mds_claims.check_eckart_young(D, 1, 0, mds=_mds_variant("ok"),
                                                        euclidean=True))


def test_double_centering_derivation_refutes_a_positive_half():
    Z = [sp.Matrix(sp.symbols(f"u{i} v{i}", real=True)) for i in range(2)]
    Z.append(-Z[0] - Z[1])
    d2 = [[((Z[i] - Z[j]).T * (Z[i] - Z[j]))[0] for j in range(3)] for i in range(3)]
    row = [sum(d2[i]) / 3 for i in range(3)]
    grand = sum(row) / 3
    d = Derivation("broken (8.3)")
    d.equal("(8.3) with +1/2", (Z[0].T * Z[1])[0],
            sp.Rational(1, 2) * (d2[0][1] - row[0] - row[1] + grand))
    with pytest.raises(AssertionError):
        d.verify()


# ---------------------------------------------------------------------------
# Isomap
# ---------------------------------------------------------------------------


def _geodesics(scale: float = 1.0, extra_k: int = 0):
    def geodesics(X, k):
        return scale * Isomap(n_neighbors=min(k + extra_k, X.shape[0] - 1),
                              n_components=1).fit(X).dist_matrix_
    return geodesics


@pytest.mark.parametrize("broken", [_geodesics(scale=0.9), _geodesics(extra_k=1)],
                         ids=["scaled", "k+1"])
def test_graph_metric_check_refutes(broken):
    @given(X=iso_claims._point_sets(), k=st.integers(1, 4))
    def check(X, k):
        iso_claims.check_graph_metric(X, min(k, X.shape[0] - 1), geodesics=broken)

    assert_refutes(check)


class _HalvedGeodesicIsomap(Isomap):
    """Geodesics halved before use (the constant of the path lengths)."""

    def fit(self, X, y=None):
        super().fit(X, y)
        self.dist_matrix_ = 0.5 * self.dist_matrix_
        return self


class _ShortCircuitIsomap(Isomap):
    """k replaced by 5k: the roll's layers short-circuit."""

    def fit(self, X, y=None):
        return Isomap(n_neighbors=5 * self.n_neighbors, n_components=self.n_components).fit(X)


@pytest.mark.parametrize("broken", [_HalvedGeodesicIsomap, _ShortCircuitIsomap])
def test_roll_check_refutes(broken):
    assert_refutes(lambda: iso_claims.check_roll(600, 6, 0, isomap=broken))


def test_tradeoff_check_refutes_an_isomap_that_joins_components():
    # scikit-learn's Isomap silently links disconnected components instead of refusing
    assert_refutes(lambda: iso_claims.check_tradeoff(300, 0, 2, 40, isomap=SkIsomap))


# ---------------------------------------------------------------------------
# LLE
# ---------------------------------------------------------------------------


def _weights_variant(kind: str):
    def weights(X, k, reg):
        if kind == "absolute-reg":  # reg not scaled by tr(C): scale-dependent
            Xs = np.asarray(X, dtype=float)
            res = lle_weights(Xs, k, 0.0 if reg == 0 else 1e-12)
            idx = res.indices
            N = Xs[idx] - Xs[:, None, :]
            C = N @ N.transpose(0, 2, 1) + reg * np.eye(k)
            w = np.linalg.solve(C, np.ones((len(Xs), k, 1)))[..., 0]
            w /= w.sum(axis=1, keepdims=True)
        else:
            res = lle_weights(X, k, reg * (2.0 if kind == "double-reg" else 1.0))
            idx, w = res.indices, res.weights
            if kind == "unnormalised":
                w = 1.1 * w
        m = len(w)
        from scipy import sparse
        W = sparse.csr_matrix((w.ravel(), (np.repeat(np.arange(m), k), idx.ravel())),
                              shape=(m, m))
        return LLEWeights(idx, w, W)
    return weights


@pytest.mark.parametrize("kind", ["unnormalised", "double-reg"])
def test_weights_check_refutes(kind):
    @given(nb=neighbourhoods(), reg=st.sampled_from([1e-3, 0.1]))
    def check(nb, reg):
        lle_claims.check_weights(nb, reg, weights=_weights_variant(kind))

    assert_refutes(check)


@pytest.mark.parametrize("kind", ["unnormalised", "absolute-reg"])
def test_invariance_check_refutes(kind):
    @given(X=lle_claims._point_sets(), k=st.integers(2, 5), seed=SEEDS)
    def check(X, k, seed):
        lle_claims.check_invariance(X, min(k, X.shape[0] - 1), 0.1, seed,
                                    weights=_weights_variant(kind))

    assert_refutes(check)


class _OffByOneLLE(LocallyLinearEmbedding):
    """Eigenvectors 3..d'+2: an index off by one."""

    def fit(self, X, y=None):
        super().fit(X, y)
        vecs = np.linalg.eigh(self.M_.toarray())[1]
        self.embedding_ = vecs[:, 2: 2 + self.n_components]
        return self


class _TransposedMLLE(LocallyLinearEmbedding):
    """M = (I - W)(I - W)^T: the transpose on the wrong factor."""

    def fit(self, X, y=None):
        super().fit(X, y)
        IW = np.eye(X.shape[0]) - self.weights_.matrix.toarray()
        from scipy import sparse
        self.M_ = sparse.csr_matrix(IW @ IW.T)
        return self


@pytest.mark.parametrize("broken", [_OffByOneLLE, _TransposedMLLE])
def test_embedding_check_refutes(broken):
    @given(X=lle_claims._curves(), seed=SEEDS)
    def check(X, seed):
        lle_claims.check_embedding(X, 5, 1, seed, lle=broken)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# Metric
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("broken", [
    lambda a, b, w: weighted_euclidean_distance(a, b, np.sqrt(w)),
    lambda a, b, w: weighted_euclidean_distance(a, b, 0.5 * w),
], ids=["sqrt-w", "half-w"])
def test_weighted_check_refutes(broken):
    @given(pair=metric_claims._weighted_pairs())
    def check(pair):
        a, b, w = pair
        metric_claims.check_weighted(a, b, 2.0 * w + 0.5, dist=broken)

    assert_refutes(check)


def _squared_as_distance(a, b, M=None, *, P=None, squared=False):
    return mahalanobis_distance(a, b, M, P=P, squared=True)


def _sign_flipped(a, b, M=None, *, P=None, squared=False):
    return -mahalanobis_distance(a, b, M, P=P, squared=squared)


@pytest.mark.parametrize("broken", [_squared_as_distance, _sign_flipped])
def test_mahalanobis_check_refutes(broken):
    @given(MP=metric_matrices(), seed=SEEDS)
    def check(MP, seed):
        metric_claims.check_mahalanobis(*MP, seed, dist=broken)

    assert_refutes(check)


# ---------------------------------------------------------------------------
# NCA
# ---------------------------------------------------------------------------


def _hot_probabilities(X, y, P):  # exp(-d^2 / 2): the squared distance halved
    return nca_probabilities(X, y, np.asarray(P) / np.sqrt(2.0))


def test_probability_check_refutes_a_halved_exponent():
    @given(prob=labelled_problems(max_m=6, far=False))
    def check(prob):
        nca_claims.check_probabilities(prob, probabilities=_hot_probabilities)

    assert_refutes(check)


def _gradient_variant(kind: str):
    def gradient(X, y, P):
        value, grad = nca_gradient(X, y, P)
        if kind == "half":
            return value, 0.5 * grad
        if kind == "sign":
            return value, -grad
        # the p_i term of W_ij = p_ij (p_i - [y_i = y_j]) dropped
        p, _ = nca_probabilities(X, y, P)
        same = np.asarray(y)[:, None] == np.asarray(y)[None, :]
        W = -p * same
        S = W + W.T
        L = np.diag(S.sum(axis=1)) - S
        return value, 2.0 * X.T @ (L @ (X @ P))
    return gradient


@pytest.mark.parametrize("kind", ["half", "sign", "no-p_i"])
def test_objective_check_refutes(kind):
    @given(prob=labelled_problems(min_m=3, max_m=6, far=False))
    def check(prob):
        nca_claims.check_objective(prob, gradient=_gradient_variant(kind))

    assert_refutes(check)


class _TamperedHistoryNCA(NeighbourhoodComponentsAnalysis):
    """A recorded history with one value raised (a record that is not the loop's)."""

    def fit(self, X, y):
        super().fit(X, y)
        h = list(self.objective_history_)
        h[len(h) // 2] += 0.1
        self.objective_history_ = h
        return self


def test_history_check_refutes_a_tampered_record():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 2))
    y = (X[:, 0] > 0).astype(int)
    assert_refutes(lambda: nca_claims.check_history(X, y, nca=_TamperedHistoryNCA))
    assert_holds(lambda: nca_claims.check_history(X, y))


def test_classical_mds_is_the_unbroken_variant():
    D = distance_matrix(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]))
    assert_holds(lambda: mds_claims.check_exact_embedding(D, 2, mds=classical_mds))

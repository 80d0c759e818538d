"""Behaviour of kNN, PCA and kernel PCA (003 §8.1, §8.3, §8.4): the stated tie rules,
laziness, the choice of d', centring and sign conventions, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.decomposition import PCA as SkPCA  # noqa: N811 (scikit-learn's class name)

from algorithms.dimred import (
    PCA,
    KernelPCA,
    KNNClassifier,
    KNNRegressor,
    center_kernel_matrix,
    deterministic_signs,
    knn_weights,
)

RNG = np.random.default_rng(20261127)


# ---------------------------------------------------------------------------
# kNN
# ---------------------------------------------------------------------------


def test_knn_refuses_k_at_least_n():
    X, y = RNG.normal(size=(5, 2)), np.array([0, 1, 0, 1, 0])
    for k in (5, 6):
        with pytest.raises(ValueError, match="n_neighbors"):
            KNNClassifier(n_neighbors=k).fit(X, y)
    KNNClassifier(n_neighbors=4).fit(X, y)  # k = n - 1 is allowed


def test_knn_fit_only_stores_the_training_set():
    X, y = RNG.normal(size=(20, 3)), RNG.integers(0, 2, 20)
    est = KNNClassifier(n_neighbors=3, algorithm="brute").fit(X, y)
    assert est.X_fit_ is not None and np.array_equal(est.X_fit_, X)
    assert np.array_equal(est.classes_[est.y_codes_], y)
    learned = {k for k in vars(est) if k.endswith("_")}
    assert learned == {"X_fit_", "y_codes_", "classes_", "n_features_in_", "n_samples_fit_",
                       "algorithm_", "fit_scale_", "tree_"}


def test_vote_ties_go_to_the_smallest_label():
    # one neighbour of each class, equally far: label 3 before 7
    X = np.array([[1.0], [-1.0], [5.0]])
    y = np.array([7, 3, 7])
    est = KNNClassifier(n_neighbors=2).fit(X, y)
    assert est.predict([[0.0]])[0] == 3
    est = KNNClassifier(n_neighbors=2, weights="distance").fit(X, y)
    assert est.predict([[0.0]])[0] == 3


def test_equidistant_neighbours_are_taken_in_training_order():
    X = np.array([[2.0], [-1.0], [1.0], [0.0]])
    y = np.array([0, 1, 0, 1])
    for algorithm in ("brute", "kd_tree"):
        est = KNNClassifier(n_neighbors=2, algorithm=algorithm).fit(X, y)
        _, idx = est.kneighbors([[0.0]])
        assert idx.tolist() == [[3, 1]]  # distance 0, then index 1 before index 2


def test_brute_and_tree_agree_on_a_grid_full_of_ties():
    X = RNG.integers(0, 3, size=(60, 2)).astype(float)
    y = RNG.integers(0, 3, size=60)
    Q = RNG.integers(0, 3, size=(40, 2)).astype(float)
    a = KNNClassifier(n_neighbors=7, algorithm="brute").fit(X, y)
    b = KNNClassifier(n_neighbors=7, algorithm="kd_tree").fit(X, y)
    assert np.array_equal(a.kneighbors(Q)[1], b.kneighbors(Q)[1])
    assert np.array_equal(a.predict(Q), b.predict(Q))


def test_blocks_of_queries_cover_every_query():
    # more queries than one block of the brute-force distance matrix (2**22 entries) and
    # than one block of the tie re-solve: every query must still be answered
    X = RNG.integers(0, 40, size=(5000, 2)).astype(float)
    y = RNG.integers(0, 3, size=5000)
    Q = RNG.integers(0, 40, size=(1200, 2)).astype(float)
    a = KNNClassifier(n_neighbors=3, algorithm="brute").fit(X, y)
    b = KNNClassifier(n_neighbors=3, algorithm="kd_tree").fit(X, y)
    da, ia = a.kneighbors(Q)
    db, ib = b.kneighbors(Q)
    assert np.array_equal(ia, ib) and np.array_equal(da, db)
    d2 = ((Q[-1] - X) ** 2).sum(axis=1)
    assert ia[-1].tolist() == np.lexsort((np.arange(5000), d2))[:3].tolist()


def test_all_zero_data_gives_zero_distances():
    X, y = np.zeros((6, 2)), np.array([0, 1, 0, 1, 0, 1])
    for algorithm in ("brute", "kd_tree"):
        est = KNNClassifier(n_neighbors=3, weights="distance", algorithm=algorithm).fit(X, y)
        d, idx = est.kneighbors(np.zeros((2, 2)))
        assert np.all(d == 0) and idx.tolist() == [[0, 1, 2]] * 2
        assert est.predict(np.zeros((1, 2)))[0] == 0  # 2 votes of label 0 against 1


def test_distance_weights_at_zero_distance_use_the_coincident_points():
    X = np.array([[0.0], [0.0], [0.1], [0.2]])
    y = np.array([1.0, 3.0, 100.0, 100.0])
    est = KNNRegressor(n_neighbors=3, weights="distance").fit(X, y)
    assert est.predict([[0.0]])[0] == pytest.approx(2.0)
    w = knn_weights([[0.0, 1.0], [1.0, 3.0]], "distance")
    assert np.allclose(w, [[1.0, 0.0], [0.75, 0.25]])


def test_predict_proba_rows_are_vote_shares():
    X, y = RNG.normal(size=(30, 2)), RNG.integers(0, 3, 30)
    p = KNNClassifier(n_neighbors=4).fit(X, y).predict_proba(RNG.normal(size=(5, 2)))
    assert np.allclose(p.sum(axis=1), 1.0)
    assert np.allclose(p * 4, np.round(p * 4))


def test_knn_at_extreme_scales_is_finite_and_scale_free():
    X, y = RNG.normal(size=(30, 3)), RNG.normal(size=30)
    Q = RNG.normal(size=(6, 3))
    base = KNNRegressor(n_neighbors=4, weights="distance").fit(X, y).predict(Q)
    for s in (1e-300, 1e300):
        for algorithm in ("brute", "kd_tree"):
            est = KNNRegressor(n_neighbors=4, weights="distance", algorithm=algorithm)
            out = est.fit(X * s, y).predict(Q * s)
            assert np.allclose(out, base, rtol=1e-10)
            d, _ = est.kneighbors(Q * s)
            assert np.all(np.isfinite(d))


def test_knn_refuses_bad_input():
    X, y = RNG.normal(size=(10, 2)), RNG.integers(0, 2, 10)
    with pytest.raises(ValueError, match="weights"):
        KNNClassifier(weights="gaussian").fit(X, y)
    with pytest.raises(ValueError, match="algorithm"):
        KNNClassifier(algorithm="ball_tree").fit(X, y)
    X_bad = X.copy()
    X_bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KNNClassifier().fit(X_bad, y)
    with pytest.raises(ValueError, match="distances"):
        knn_weights([[-1.0, 2.0]], "distance")


# ---------------------------------------------------------------------------
# PCA
# ---------------------------------------------------------------------------


def test_pca_variance_threshold_picks_the_smallest_sufficient_dimension():
    X = RNG.normal(size=(200, 6)) * np.array([10.0, 5.0, 2.0, 1.0, 0.5, 0.1])
    est = PCA(variance_threshold=0.95).fit(X)
    cum = np.cumsum(est.scatter_eigenvalues_) / est.scatter_eigenvalues_.sum()
    k = est.n_components_
    assert cum[k - 1] >= 0.95 and (k == 1 or cum[k - 2] < 0.95)
    assert PCA(variance_threshold=1.0).fit(X).n_components_ == 6
    assert k == SkPCA(n_components=0.95, svd_solver="full").fit(X).n_components_


def test_pca_round_trip_and_stored_mean():
    X = RNG.normal(size=(30, 4)) + 100.0
    est = PCA().fit(X)
    assert np.allclose(est.inverse_transform(est.transform(X)), X)
    Q = RNG.normal(size=(3, 4))
    assert np.allclose(est.transform(Q), (Q - X.mean(axis=0)) @ est.components_.T)
    assert np.allclose(est.transform(Q[:1]), est.transform(Q)[:1])
    two = PCA(n_components=2).fit(X)
    assert two.reconstruction_error(X) == pytest.approx(est.scatter_eigenvalues_[2:].sum())


def test_pca_sign_convention_is_deterministic():
    X = RNG.normal(size=(40, 5))
    C = PCA().fit(X).components_
    pivot = np.argmax(np.abs(C), axis=1)
    assert np.all(C[np.arange(5), pivot] > 0)
    assert np.array_equal(PCA().fit(X).components_, C)
    assert np.array_equal(deterministic_signs(-C), C)


def test_pca_without_variance_gives_zeros_not_nan():
    X = np.ones((5, 3))
    est = PCA(variance_threshold=0.9).fit(X)
    assert est.n_components_ == 3
    assert np.all(est.explained_variance_ratio_ == 0)
    assert np.all(np.isfinite(est.transform(X)))


def test_pca_refuses_bad_dimensions():
    X = RNG.normal(size=(6, 3))
    for bad in (0, 4, -1):
        with pytest.raises(ValueError, match="n_components"):
            PCA(n_components=bad).fit(X)
    with pytest.raises(ValueError, match="exclusive"):
        PCA(n_components=2, variance_threshold=0.5).fit(X)
    with pytest.raises(ValueError, match="Z"):
        PCA(n_components=2).fit(X).inverse_transform(np.ones((2, 3)))


# ---------------------------------------------------------------------------
# Kernel PCA
# ---------------------------------------------------------------------------


def test_linear_kernel_pca_is_pca_up_to_sign():
    X = RNG.normal(size=(25, 4)) * np.array([4.0, 2.0, 1.0, 0.5]) + 3.0
    Q = RNG.normal(size=(5, 4))
    z = KernelPCA(n_components=3, kernel="linear").fit(X).transform(Q)
    ref = PCA(n_components=3).fit(X).transform(Q)
    signs = np.sign(np.sum(z * ref, axis=0))
    assert np.allclose(z, ref * signs, atol=1e-9)


def test_training_coordinates_are_sqrt_lambda_times_eigenvectors():
    X = RNG.normal(size=(20, 3))
    est = KernelPCA(n_components=4, kernel_params={"sigma": 1.5}).fit(X)
    assert np.allclose(est.transform(X), est.eigenvectors_ * np.sqrt(est.eigenvalues_))


def test_callable_kernel_equals_the_named_one():
    X = RNG.normal(size=(15, 2))
    named = KernelPCA(n_components=3, kernel="poly",
                      kernel_params={"degree": 2, "coef0": 1.0}).fit(X)
    own = KernelPCA(n_components=3, kernel=lambda A, B: (A @ B.T + 1.0) ** 2).fit(X)
    assert np.allclose(named.transform(X), own.transform(X))
    with pytest.raises(ValueError, match="kernel"):
        KernelPCA(kernel=lambda A, B: np.ones((2, 2))).fit(X)
    with pytest.raises(ValueError, match="kernel"):
        KernelPCA(kernel=3).fit(X)


def test_all_components_drop_zero_eigenvalues():
    X = RNG.normal(size=(12, 2))
    est = KernelPCA(kernel="linear").fit(X)  # centred linear kernel: rank 2
    assert est.n_components_ == 2
    few = KernelPCA(n_components=4, kernel="linear").fit(X)
    assert np.all(few.dual_coef_[:, 2:] == 0) and np.all(np.isfinite(few.transform(X)))


def test_center_kernel_matrix_is_double_centring():
    X = RNG.normal(size=(8, 3))
    K = (X @ X.T + 1.0) ** 2
    J = np.eye(8) - 1.0 / 8
    assert np.allclose(center_kernel_matrix(K), J @ K @ J)
    Q = RNG.normal(size=(2, 3))
    Kq = (Q @ X.T + 1.0) ** 2
    Phi = lambda A: np.hstack([np.einsum("ni,nj->nij", A, A).reshape(len(A), -1),  # noqa: E731
                               np.sqrt(2) * A, np.ones((len(A), 1))])
    mean = Phi(X).mean(axis=0)
    assert np.allclose(center_kernel_matrix(Kq, K), (Phi(Q) - mean) @ (Phi(X) - mean).T)
    with pytest.raises(ValueError, match="K_fit"):
        center_kernel_matrix(Kq, np.ones((3, 4)))
    with pytest.raises(ValueError, match="K"):
        center_kernel_matrix(np.ones((2, 3)))


def test_kernel_pca_refuses_bad_input():
    X = RNG.normal(size=(6, 2))
    with pytest.raises(ValueError, match="n_components"):
        KernelPCA(n_components=7).fit(X)
    with pytest.raises(ValueError, match="center"):
        KernelPCA(center=1).fit(X)
    with pytest.raises(ValueError, match="X"):
        KernelPCA(kernel="linear").fit(X * 1e200)

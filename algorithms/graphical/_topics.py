"""The LDA topic model (003 §12.6 (12.24)-(12.26)).

- :func:`sample_lda_corpus` is the generative process: ``beta_k ~ Dir(eta)`` over the
  vocabulary for each topic ``k``; for each document ``t``: ``Theta_t ~ Dir(alpha)``,
  then for each word position ``n``: ``z_{t,n} ~ Cat(Theta_t)`` and
  ``w_{t,n} ~ Cat(beta_{z_{t,n}})``.
- :func:`lda_log_joint` is the log of that process's density,
  ``sum_t ln Dir(Theta_t | alpha) + sum_k ln Dir(beta_k | eta)
  + sum_{t,n} [ln beta_{z_{t,n}, w_{t,n}} + ln Theta_{t, z_{t,n}}]`` — the topic prior
  enters once, not once per document (see the erratum claim on (12.24)).
- :func:`lda_collapsed_log_joint` is ``ln p(W, z | alpha, eta)`` with ``Theta`` and
  ``beta`` integrated out (Dirichlet-multinomial):
  ``sum_t [ln B(alpha + n_t) - ln B(alpha)] + sum_k [ln B(eta + n_k) - ln B(eta)]``.
- :func:`lda_log_evidence` is ``ln p(W | alpha, eta) = ln sum_z p(W, z | alpha, eta)``,
  the denominator of (12.26), by exact enumeration of every assignment (tiny corpora
  only). Applied to the whole corpus it is the corpus log-likelihood; documents share
  the topics ``beta``, so it is *not* the sum of the documents' own values (12.25).
- :class:`LDATopicModel` infers the posterior (12.26) by collapsed Gibbs sampling:
  each token's topic is redrawn from
  ``p(z_i = k | z_{-i}, W) ∝ (n_{d,k} + alpha)(n_{k,w} + eta) / (n_k + V eta)``
  (counts without token ``i``).

Priors are symmetric: ``alpha`` and ``eta`` are positive scalars.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln
from sklearn.base import BaseEstimator, TransformerMixin

from algorithms._validation import (
    check_array_argument,
    check_int,
    check_real,
    make_rng,
    validate_features,
)

__all__ = [
    "LDACorpus",
    "LDATopicModel",
    "lda_collapsed_log_joint",
    "lda_log_evidence",
    "lda_log_joint",
    "sample_lda_corpus",
]


@dataclass(frozen=True)
class LDACorpus:
    """A corpus drawn by :func:`sample_lda_corpus`.

    Attributes
    ----------
    words, topics : ndarray of int, shape (T, N)
        ``w_{t,n}`` and ``z_{t,n}``.
    beta : ndarray of shape (K, V)
        Topic-word distributions.
    theta : ndarray of shape (T, K)
        Document-topic proportions.
    """

    words: np.ndarray
    topics: np.ndarray
    beta: np.ndarray
    theta: np.ndarray

    def counts(self) -> np.ndarray:
        """The document-word count matrix, shape ``(T, V)``."""
        T, V = self.words.shape[0], self.beta.shape[1]
        out = np.zeros((T, V), dtype=np.int64)
        np.add.at(out, (np.repeat(np.arange(T), self.words.shape[1]), self.words.ravel()), 1)
        return out


def sample_lda_corpus(
    n_documents: int,
    document_length: int,
    n_topics: int,
    vocabulary_size: int,
    *,
    alpha: float = 0.5,
    eta: float = 0.5,
    random_state: object = None,
) -> LDACorpus:
    """Draw a corpus by LDA's generative steps (003 §12.6).

    Parameters
    ----------
    n_documents, document_length, n_topics, vocabulary_size : int
        ``T``, ``N``, ``K`` and ``V``.
    alpha, eta : float
        Symmetric Dirichlet parameters of ``Theta_t`` (K-dimensional) and ``beta_k``
        (V-dimensional).
    random_state : None, int or Generator
    """
    T = check_int(n_documents, "n_documents", low=1, high=10**6)
    N = check_int(document_length, "document_length", low=1, high=10**6)
    K = check_int(n_topics, "n_topics", low=1, high=10**4)
    V = check_int(vocabulary_size, "vocabulary_size", low=1, high=10**6)
    if T * N > 10**8:
        raise ValueError("n_documents * document_length must be at most 1e8 tokens.")
    a = check_real(alpha, "alpha", low=0.0, low_open=True)
    e = check_real(eta, "eta", low=0.0, low_open=True)
    rng = make_rng(random_state)
    beta = _dirichlet(rng, np.full(V, e), K)
    theta = _dirichlet(rng, np.full(K, a), T)
    topics = _categorical_rows(rng, theta, N)
    words = _categorical_rows(rng, beta[topics.ravel()], 1).reshape(T, N)
    return LDACorpus(words, topics, beta, theta)


def _dirichlet(rng: np.random.Generator, conc: np.ndarray, size: int) -> np.ndarray:
    # normalised gammas; a row whose gammas all underflow (tiny concentration) puts its
    # mass on its largest log-gamma instead of dividing 0 by 0
    g = rng.gamma(np.broadcast_to(conc, (size, conc.size)))
    s = g.sum(axis=1, keepdims=True)
    bad = s[:, 0] == 0
    if np.any(bad):
        g[bad] = np.eye(conc.size)[rng.integers(conc.size, size=int(bad.sum()))]
        s = g.sum(axis=1, keepdims=True)
    return g / s


def _categorical_rows(rng: np.random.Generator, probs: np.ndarray, n: int) -> np.ndarray:
    c = np.cumsum(probs, axis=1)
    u = rng.random((probs.shape[0], n)) * c[:, -1:]
    out = np.empty((probs.shape[0], n), dtype=np.int64)
    for j in range(n):
        out[:, j] = (c <= u[:, j:j + 1]).sum(axis=1)
    return np.minimum(out, probs.shape[1] - 1)


def _codes(value: object, name: str, high: int | None = None) -> np.ndarray:
    arr = check_array_argument(value, name, ndim=2, real=True)
    if not np.all(arr == np.round(arr)) or np.any(arr < 0) or np.any(arr >= 10**7):
        raise ValueError(f"{name} must hold integer codes in [0, 1e7).")
    if high is not None and np.any(arr >= high):
        raise ValueError(f"{name} must hold codes below {high}.")
    return arr.astype(np.int64)


def _log_dirichlet_norm(conc: float, dim: int) -> float:
    """``ln B(conc * 1_dim)``."""
    return float(dim * gammaln(conc) - gammaln(dim * conc))


def lda_log_joint(
    words: object,
    topics: object,
    beta: object,
    theta: object,
    *,
    alpha: float,
    eta: float,
) -> float:
    """``ln p(W, z, beta, Theta | alpha, eta)`` of the generative process (12.24, corrected).

    Parameters
    ----------
    words, topics : array of int, shape (T, N)
    beta : array of shape (K, V), rows on the simplex
    theta : array of shape (T, K), rows on the simplex
    alpha, eta : float
    """
    a = check_real(alpha, "alpha", low=0.0, low_open=True)
    e = check_real(eta, "eta", low=0.0, low_open=True)
    B = check_array_argument(beta, "beta", ndim=2, real=True)
    K, V = B.shape
    Th = check_array_argument(theta, "theta", shape=(None, K), real=True)
    for M, name in ((B, "beta"), (Th, "theta")):
        if np.any(M <= 0) or not np.allclose(M.sum(axis=1), 1.0, rtol=0, atol=1e-9):
            raise ValueError(f"{name} rows must be positive and sum to 1.")
    W = _codes(words, "words", V)
    Z = _codes(topics, "topics", K)
    if W.shape != Z.shape or W.shape[0] != Th.shape[0]:
        raise ValueError(f"words and topics must have shape ({Th.shape[0]}, N) like theta's "
                         f"rows, got {W.shape} and {Z.shape}.")
    prior_theta = ((a - 1) * np.log(Th).sum() - Th.shape[0] * _log_dirichlet_norm(a, K))
    prior_beta = (e - 1) * np.log(B).sum() - K * _log_dirichlet_norm(e, V)
    rows = np.arange(W.shape[0])[:, None]
    return float(prior_theta + prior_beta + np.log(B[Z, W]).sum() + np.log(Th[rows, Z]).sum())


def _collapsed(doc_topic: np.ndarray, word_topic: np.ndarray, a: float, e: float) -> float:
    K, V = doc_topic.shape[1], word_topic.shape[0]
    docs = (gammaln(doc_topic + a).sum(axis=1) - gammaln(doc_topic.sum(axis=1) + K * a)).sum()
    topics = (gammaln(word_topic + e).sum(axis=0) - gammaln(word_topic.sum(axis=0) + V * e)).sum()
    return float(docs - doc_topic.shape[0] * _log_dirichlet_norm(a, K)
                 + topics - K * _log_dirichlet_norm(e, V))


def lda_collapsed_log_joint(
    words: object,
    topics: object,
    *,
    n_topics: int,
    vocabulary_size: int,
    alpha: float,
    eta: float,
) -> float:
    """``ln p(W, z | alpha, eta)``: (12.24) with ``Theta`` and ``beta`` integrated out."""
    K = check_int(n_topics, "n_topics", low=1, high=10**4)
    V = check_int(vocabulary_size, "vocabulary_size", low=1, high=10**6)
    a = check_real(alpha, "alpha", low=0.0, low_open=True)
    e = check_real(eta, "eta", low=0.0, low_open=True)
    W = _codes(words, "words", V)
    Z = _codes(topics, "topics", K)
    if W.shape != Z.shape:
        raise ValueError(f"words and topics must have the same shape, got {W.shape} and "
                         f"{Z.shape}.")
    ndk = np.zeros((W.shape[0], K))
    np.add.at(ndk, (np.repeat(np.arange(W.shape[0]), W.shape[1]), Z.ravel()), 1)
    nwk = np.zeros((V, K))
    np.add.at(nwk, (W.ravel(), Z.ravel()), 1)
    return _collapsed(ndk, nwk, a, e)


#: Largest number of topic assignments :func:`lda_log_evidence` enumerates.
MAX_ASSIGNMENTS = 2**16


def lda_log_evidence(
    words: object,
    *,
    n_topics: int,
    vocabulary_size: int,
    alpha: float,
    eta: float,
) -> float:
    """``ln p(W | alpha, eta)`` by summing ``p(W, z | alpha, eta)`` over all ``K^(T N)``
    assignments ``z`` (at most 65536 of them).

    Parameters
    ----------
    words : array of int, shape (T, N)
    n_topics, vocabulary_size : int
    alpha, eta : float
    """
    K = check_int(n_topics, "n_topics", low=1, high=10**4)
    V = check_int(vocabulary_size, "vocabulary_size", low=1, high=10**6)
    a = check_real(alpha, "alpha", low=0.0, low_open=True)
    e = check_real(eta, "eta", low=0.0, low_open=True)
    W = _codes(words, "words", V)
    T, N = W.shape
    if T * N * np.log(K) > np.log(MAX_ASSIGNMENTS) + 1e-9:
        raise ValueError(f"words: {K}^{T * N} assignments exceed the {MAX_ASSIGNMENTS} this "
                         "exact enumeration allows.")
    Z = np.stack(np.unravel_index(np.arange(K ** (T * N)), (K,) * (T * N)), axis=1)
    onehot = np.eye(K)[Z].reshape(-1, T, N, K)  # (C, T, N, K)
    ndk = onehot.sum(axis=2)  # (C, T, K)
    nwk = np.einsum("ctnk,tnv->cvk", onehot, np.eye(V)[W])  # (C, V, K)
    docs = (gammaln(ndk + a).sum(axis=2) - gammaln(N + K * a)).sum(axis=1)
    topics = (gammaln(nwk + e).sum(axis=1) - gammaln(nwk.sum(axis=1) + V * e)).sum(axis=1)
    logs = (docs - T * _log_dirichlet_norm(a, K) + topics - K * _log_dirichlet_norm(e, V))
    top = logs.max()
    return float(top + np.log(np.exp(logs - top).sum()))


def collapsed_gibbs(docs, words, K, V, D, alpha, eta, n_sweeps, rng, z=None):
    """Run collapsed Gibbs sweeps over the tokens; returns ``(z, ndk, nwk, history)``."""
    n_tok = docs.size
    z = rng.integers(K, size=n_tok) if z is None else z.copy()
    ndk = np.zeros((D, K))
    np.add.at(ndk, (docs, z), 1)
    nwk = np.zeros((V, K))
    np.add.at(nwk, (words, z), 1)
    nk = nwk.sum(axis=0)
    history = [_collapsed(ndk, nwk, alpha, eta)]
    # plain-Python inner loop over K: per-token numpy calls cost more than the arithmetic
    nd, nw, nt = ndk.tolist(), nwk.tolist(), nk.tolist()
    d_list, w_list, z_list = docs.tolist(), words.tolist(), z.tolist()
    v_eta = V * eta
    topics = range(K)
    for _ in range(n_sweeps):
        u = rng.random(n_tok).tolist()
        for i in range(n_tok):
            row_d, row_w, k = nd[d_list[i]], nw[w_list[i]], z_list[i]
            row_d[k] -= 1
            row_w[k] -= 1
            nt[k] -= 1
            cum, acc = [], 0.0
            for j in topics:  # (12.26) collapsed: (n_dk + alpha)(n_kw + eta)/(n_k + V eta)
                acc += (row_d[j] + alpha) * (row_w[j] + eta) / (nt[j] + v_eta)
                cum.append(acc)
            target, k = u[i] * acc, 0
            while k < K - 1 and cum[k] <= target:
                k += 1
            z_list[i] = k
            row_d[k] += 1
            row_w[k] += 1
            nt[k] += 1
        history.append(_collapsed(np.asarray(nd), np.asarray(nw), alpha, eta))
    z = np.asarray(z_list, dtype=np.int64)
    ndk, nwk = np.asarray(nd), np.asarray(nw)
    return z, ndk, nwk, history


class LDATopicModel(TransformerMixin, BaseEstimator):
    """LDA (003 §12.6) fitted by collapsed Gibbs sampling.

    Parameters
    ----------
    n_components : int, default=5
        Number of topics ``K``.
    alpha : float or None, default=None
        Symmetric document-topic prior; ``None`` means ``1 / K``.
    eta : float or None, default=None
        Symmetric topic-word prior; ``None`` means ``1 / K`` (scikit-learn's defaults).
    max_iter : int, default=50
        Gibbs sweeps over all tokens.
    transform_max_iter : int, default=100
        Fixed-point iterations of :meth:`transform`.
    random_state : None, int or Generator

    Attributes
    ----------
    components_ : ndarray of shape (K, V)
        Posterior-mean topic-word distributions ``(n_{k,w} + eta) / (n_k + V eta)`` at
        the last sweep.
    doc_topic_ : ndarray of shape (n_documents, K)
        Posterior-mean ``Theta`` of the training documents at the last sweep.
    topic_assignments_ : ndarray of int
        The last ``z`` of every token (tokens in document order, word order within).
    log_joint_history_ : ndarray of shape (max_iter + 1,)
        ``ln p(W, z | alpha, eta)`` of the initial and of every swept assignment.
    n_iter_ : int
    n_features_in_ : int

    Notes
    -----
    ``X`` holds word counts (documents by vocabulary); non-integer counts are rounded to
    the nearest integer. :meth:`transform` returns document-topic proportions from the
    fixed point ``theta_d ∝ alpha + sum_w x_dw theta_dk beta_kw / sum_j theta_dj
    beta_jw`` with the topics held fixed (deterministic, one row at a time).
    """

    def __init__(self, n_components=5, *, alpha=None, eta=None, max_iter=50,
                 transform_max_iter=100, random_state=None):
        self.n_components = n_components
        self.alpha = alpha
        self.eta = eta
        self.max_iter = max_iter
        self.transform_max_iter = transform_max_iter
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags

    def _priors(self, K):
        a = 1.0 / K if self.alpha is None else check_real(self.alpha, "alpha", low=0.0,
                                                          low_open=True)
        e = 1.0 / K if self.eta is None else check_real(self.eta, "eta", low=0.0,
                                                        low_open=True)
        return a, e

    @staticmethod
    def _counts(X):
        if np.any(X < 0):
            raise ValueError("X must hold non-negative word counts (Negative values in data).")
        if float(np.sum(X)) > 10**7:
            raise ValueError("X holds more than 1e7 tokens (word counts summed).")
        return np.rint(X).astype(np.int64)

    def fit(self, X, y=None):
        """Run ``max_iter`` collapsed Gibbs sweeps on the counts ``X``."""
        X = validate_features(self, X, reset=True)
        K = check_int(self.n_components, "n_components", low=1, high=10**4)
        a, e = self._priors(K)
        n_sweeps = check_int(self.max_iter, "max_iter", low=1, high=10**6)
        check_int(self.transform_max_iter, "transform_max_iter", low=1, high=10**6)
        rng = make_rng(self.random_state)
        counts = self._counts(X)
        D, V = counts.shape
        docs, words = np.nonzero(counts)
        reps = counts[docs, words]
        docs, words = np.repeat(docs, reps), np.repeat(words, reps)
        z, ndk, nwk, history = collapsed_gibbs(docs, words, K, V, D, a, e, n_sweeps, rng)
        self.components_ = ((nwk + e) / (nwk.sum(axis=0) + V * e)).T
        self.doc_topic_ = (ndk + a) / (ndk.sum(axis=1, keepdims=True) + K * a)
        self.topic_assignments_ = z
        self.log_joint_history_ = np.asarray(history)
        self.n_iter_ = n_sweeps
        return self

    def transform(self, X):
        """Document-topic proportions of the documents ``X`` with the topics fixed."""
        X = validate_features(self, X, reset=False)
        counts = self._counts(X).astype(np.float64)
        K = self.components_.shape[0]
        a, _ = self._priors(K)
        beta = self.components_
        theta = np.full((counts.shape[0], K), 1.0 / K)
        for _ in range(self.transform_max_iter):
            ratio = counts / (theta @ beta)
            gamma = a + theta * (ratio @ beta.T)
            new = gamma / gamma.sum(axis=1, keepdims=True)
            done = np.max(np.abs(new - theta)) < 1e-10
            theta = new
            if done:
                break
        return theta

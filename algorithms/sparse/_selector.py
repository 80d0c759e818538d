"""What the feature selectors of 003 §10.1-§10.3 share (no public names): the fitted
boolean ``support_`` as scikit-learn's support mask, and the tag that ``fit`` needs y."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin

from algorithms._validation import check_fitted

__all__: list[str] = []


class SupervisedSelector(SelectorMixin, BaseEstimator):
    """A selector whose ``fit(X, y)`` sets the boolean mask ``support_``."""

    def _get_support_mask(self) -> np.ndarray:
        check_fitted(self, "support_")
        return self.support_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

"""Claims of the svm family."""

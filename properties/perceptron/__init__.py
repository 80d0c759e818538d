"""Claims of the perceptron family."""

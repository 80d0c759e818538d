"""Claims of 003 Chapter 6 (ensemble learning) and the random-forest claims of 003 §2.7."""

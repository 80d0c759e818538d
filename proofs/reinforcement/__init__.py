"""Symbolic derivations of Reinforcement learning (003 Chapter 14)."""

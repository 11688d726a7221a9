"""Magnum-lite: the cluster API and conductor (to come)."""

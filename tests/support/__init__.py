"""Helpers for the test suite (not shipped in the product)."""

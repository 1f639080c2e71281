"""Example application package for the fixture workspace."""

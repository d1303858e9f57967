"""Widgets of the review UI: a virtual table, a detail pane and a filter bar."""

"""Counts of related rows as subqueries, shared by the selectors."""

from __future__ import annotations

from django.db.models import Count, Model, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce


def rows_per_parent(model: type[Model], parent: str) -> Coalesce:
    """How many rows of ``model`` point at each parent row through the foreign key
    ``parent`` (``rows_per_parent(RaceEntry, "race")``: a race's entries), as a subquery
    to annotate the parents with; 0 for none.

    A subquery is counted for each parent row the query keeps; a join grouped by the
    parent counts every child of every parent before a sort and a limit keep a page
    (the lobby's 60 races cost 280 ms a poll with 20,000 entries in two races,
    benchmarks/public_reads.py), and a second join beside another would count the
    product of both."""
    counted = (
        model._default_manager.filter(**{parent: OuterRef("pk")})
        .order_by()
        .values(parent)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted), Value(0))

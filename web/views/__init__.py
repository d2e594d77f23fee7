"""Views of the pages, one module per area; thin over games.services and games.selectors."""

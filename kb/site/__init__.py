"""The static site: pages in six interface languages, its browser search index, `kb serve`."""

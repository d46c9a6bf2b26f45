"""The results site: static pages generated from an event's export (results.json), readable on a
phone and from any web host, offline (docs/results-site.md)."""

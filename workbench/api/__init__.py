"""The REST API (`workbench serve`): FastAPI over one shared, read-only workspace."""

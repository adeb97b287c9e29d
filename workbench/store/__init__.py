"""Store adapters: LanceDB for units (text, vectors, metadata, full-text index), igraph for edges."""

"""Entities of law: the bodies, regulated parties, instruments and documents that provisions
name, the relations provisions lay between them, and graph views over those relations.

extract    -- rule-based entity mentions per language (zh / vi / en) and alias merging
relations  -- duty, sanction, permission, issuing and definition relations from a unit's role
aggregate  -- one record per (subject, type, object) across documents and versions
traverse   -- an igraph entity graph and three path strategies over it
subgraph   -- entity-centred subgraphs and a query-focused local context for an LLM
"""

"""CLI commands over the entities of law: `entities` (search, relations, building the
multi-vector collections, searching them) and `traverse` (paths between two entities)."""
from __future__ import annotations

import argparse
import math
import sys

STRATEGY = {"breadth_first": "bfs", "shortest_path": "shortest", "confidence_weighted": "confidence"}


def share(text: str) -> float:
    """A confidence: a number from 0 to 1 (argparse type: out of range is one line naming the argument)."""
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not 0.0 <= x <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number from 0 to 1")
    return x


def add_parsers(sub, default_ws: str, positive) -> None:
    s = sub.add_parser("entities", aliases=["entity"],
                       help="entities of law and their relations aggregated across documents (also: entity NAME)")
    s.add_argument("query", nargs="?", default="", help="part of a name (default: all, most mentioned first)")
    s.add_argument("--type", choices=["authority", "party", "instrument", "document", "term"])
    s.add_argument("-k", type=positive, default=20, help="how many (default 20)")
    s.add_argument("--relations", metavar="ENTITY_ID", help="list this entity's aggregated relations instead")
    s.add_argument("--min-confidence", type=share, metavar="C",
                   help="only entities with a mention at least this confident (0.85: names in a closed form; the "
                        "precision of the entities so kept is in docs/benchmarks.md, Entities of law); with "
                        "--relations, relations at least this confident on average")
    s.add_argument("--build-collections", action="store_true",
                   help="(re)build the entity, relation, summary and term vector collections (new texts only are embedded)")
    s.add_argument("--search", metavar="QUERY", help="multi-vector search: units and every built collection, fused")
    s.add_argument("--workspace", default=default_ws)

    s = sub.add_parser("traverse", help="paths between entities: breadth_first, shortest_path or confidence_weighted")
    s.add_argument("start", help="entity id (list them with `workbench entities NAME`)")
    s.add_argument("end", nargs="?", help="entity id (shortest_path needs one)")
    s.add_argument("--strategy", default="breadth_first", choices=list(STRATEGY))
    s.add_argument("--max-depth", type=positive, default=3)
    s.add_argument("--max-nodes", type=positive, default=50)
    s.add_argument("--min-confidence", type=share, default=0.0)
    s.add_argument("-k", type=positive, default=10, help="paths shown (default 10)")
    s.add_argument("--workspace", default=default_ws)


def cmd_entities(args, wb) -> int:
    if args.build_collections and args.search is not None:
        print("error: give --build-collections or --search, not both", file=sys.stderr)
        return 2
    if (args.build_collections or args.search is not None) and (args.query or args.type or args.relations
                                                                or args.min_confidence is not None):
        print("error: NAME, --type, --relations and --min-confidence list entities; they do not go with --build-collections "
              "or --search", file=sys.stderr)
        return 2
    if args.search is not None and not args.search.strip():
        print("error: --search needs a query", file=sys.stderr)
        return 2
    if args.build_collections:
        for name, r in wb.build_collections().items():
            print(f"{name}: {r['rows']} rows, {r['embedded']} texts embedded")
        return 0
    if args.search is not None:
        built = ("units",) + tuple(sorted(wb.collections_built()))
        if len(built) == 1:
            print("note: no collection is built, so this searches the units only "
                  "(run `workbench entities --build-collections`)", file=sys.stderr)
        for rank, h in enumerate(wb.search_all(args.search, args.k, built), 1):
            text = " ".join(h.text.split())[:90]
            print(f"{rank:>2}. {h.collection:<9} {h.id}  {text}")
        return 0
    least = args.min_confidence or 0.0
    index = wb.entities
    if args.relations and args.relations not in index.entities:
        print(f"error: no entity {args.relations!r}; list ids with `workbench entities NAME`", file=sys.stderr)
        return 2
    for r in index.relations_of(args.relations, min_confidence=least)[:args.k] if args.relations else ():
        print(f"{r.subject} -{r.type}-> {r.object}  x{r.occurrences} in {r.document_count} instrument(s), confidence "
              f"{r.avg_confidence:.2f} (max {r.max_confidence:.2f}), first seen {r.first_seen or '?'}")
    for e in () if args.relations else index.search(args.query, (args.type,) if args.type else (), args.k, least):
        print(f"{e['id']:<50} {e['mentions']:>4} mentions in {e['documents']} instrument(s), "
              f"confidence {e['confidence']:.2f}")
    return 0


def cmd_traverse(args, wb) -> int:
    index = wb.entities
    for e in (args.start, args.end):
        if e is not None and e not in index.entities:
            print(f"error: no entity {e!r}; list ids with `workbench entities NAME`", file=sys.stderr)
            return 2
    if args.strategy == "shortest_path" and not args.end:
        print("error: --strategy shortest_path needs an END entity", file=sys.stderr)
        return 2
    paths = index.traverse(args.start, args.end, STRATEGY[args.strategy], args.max_depth, args.max_nodes,
                           args.min_confidence)
    if not paths:
        print("no path" + (f" from {args.start} to {args.end}" if args.end else f" from {args.start}"))
    for p in paths[:args.k]:
        steps = " ".join(f"-{s.type}-> {node}" if s.forward else f"<-{s.type}- {node}"
                         for s, node in zip(p.steps, p.nodes[1:]))
        documents = sorted({d for s in p.steps for d in s.documents})
        print(f"{p.nodes[0]} {steps}")
        print(f"    {p.hops} hop(s), document diversity {p.diversity:.2f}, confidence {p.total_confidence:.2f} "
              f"(weakest {p.min_confidence:.2f}), documents {', '.join(documents)}")
    return 0

"""The constants of reflective consolidation (documented in ``docs/consolidation.md``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ConsolidationParams:
    """Constants of reflective consolidation (documented in ``docs/consolidation.md``)."""

    hub_degree: float = 1.5  # δ_hub: a hub has weighted degree D(v) > this …
    hub_quantile: float = 0.8  # … and is in the top 20% of degrees (0: no relative bar)
    cluster_size: int = 6  # hub + up to 5 strongest neighbours
    min_cluster: int = 2  # a hub needs at least one neighbour
    member_min_weight: float = 0.2  # a neighbour joins the cluster only over an edge this strong
    max_overlap: float = 0.5  # skip a hub whose cluster is more than this share already covered
    max_clusters: int | None = 16  # clusters distilled per pass (None: all)
    max_items: int = 2  # items the grammar allows per cluster
    max_chars: int = 90  # longest item text the grammar allows (after the forced prefix)
    max_tokens: int = 96  # completion budget per cluster
    memory_chars: int = 220  # each episode is cut to this many characters in the prompt
    temperature: float = 0.0  # greedy: reruns give the same items
    duplicate_threshold: float = 0.90  # cosine at/above which an item repeats an old one
    contradict_threshold: float = 0.75  # cosine at/above which an item may update an old one
    min_words: int = 3  # shortest acceptable item, in words after the forced prefix
    lock_timeout: float = 0.5  # seconds to wait for the model before yielding

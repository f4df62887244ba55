"""Settings and algorithm parameters, as dataclasses with documented defaults.

`Settings` is what the user sees (settings dialog, ``settings.json`` in the data
folder).  `HelaParams` and `StreamingParams` hold the two retrieval profiles'
constants; every formula that uses them lives in :mod:`hela_desktop.formulas`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

SETTINGS_FILE = "settings.json"


class SettingsError(ValueError):
    """settings.json cannot be used; the message names the file and what to do."""


# the retrieval profiles (`MemoryEngine.retrieve`); `profile` must name one
PROFILES = ("hela", "hela-nospread", "hela-paper", "streaming", "dense")
MAX_N_CTX = 131072  # the largest context size accepted (models rarely train longer)
HISTORY_EXCHANGES = 1  # `Settings.history_exchanges` by default (measured: docs/benchmarks.md)


def _typed(cls, data: dict, prefix: str) -> dict:
    """The known keys of `data` for dataclass `cls`, each of its default's type (an integer
    is a fine float, a whole float a fine integer); a value of another type, or a number
    that is not finite, raises SettingsError naming the key.  Unknown keys are ignored."""
    import math

    out = {}
    for f in fields(cls):
        if f.name not in data or f.name in ("hela", "streaming", "gate"):
            continue
        v, want = data[f.name], type(getattr(cls(), f.name))
        ok = type(v) is want
        if want is float and type(v) is int:
            v, ok = float(v), abs(v) < 1e300
        elif want is int and type(v) is float and math.isfinite(v) and v.is_integer():
            v, ok = int(v), True
        if ok and want in (int, float):
            ok = abs(v) < 1e300 and math.isfinite(v)
        if not ok:
            raise SettingsError(f"{prefix}{f.name}: expected {want.__name__}, got {v!r:.40}")
        out[f.name] = v
    return out


@dataclass
class HelaParams:
    """HeLa-Mem constants.

    The ``hela`` profile scores on a standardised scale (z-scores over the memory pool, see
    ``formulas.standardize``): dense similarity plus α·BM25 keyword score plus a speaker-field
    match, times temporal decay; spreading then adds the activation of the episode's
    conversation (``context_weight``) and of its graph neighbours (β).  ``hela-paper`` keeps
    the published formula and constants (``paper_*``): sim=(cos+1)/2, raw IDF overlap,
    θ=0.6, β=0.1.  Defaults were chosen on principle and checked on 3 LoCoMo conversations,
    then confirmed on 2 held-out ones (docs/benchmarks.md).
    """

    k: int = 10  # top-k by base activation
    m: int = 5  # at most m extra "associative" nodes lifted by spreading
    theta: float = 0.0  # θ: a node spreads only when S_base > θ (z units; paper: 0.6 on sim)
    alpha: float = 0.5  # α: weight of the keyword (BM25) score in S_base
    speaker_weight: float = 1.0  # bonus when the query names the episode's speaker
    strip_names: bool = True  # embed the query without the participants' names
    eta: float = 0.02  # η: Hebbian learning rate
    lam: float = 0.005  # λ: Hebbian decay per retrieval step
    beta: float = 0.1  # β: spreading strength along edges (the paper's value)
    context_weight: float = 0.6  # γ: activation shared by episodes of one conversation
    context_top: int = 2  # a conversation's activation: mean of its best `context_top` bases
    context_pool: int = 300  # spreading and context act on the best `context_pool` bases
    tau_days: float = 60.0  # τ: temporal decay constant, in days
    decay_floor: float = 0.9  # decay = floor + (1 - floor)·exp(-Δt/τ): old never means gone
    weight_cap: float = 1.0  # edges never exceed this weight
    temporal_edge: float = 0.5  # prior weight linking consecutive episodes
    semantic_prior: bool = True  # cold-start fix: link new episodes to similar old ones
    semantic_prior_k: int = 3  # how many similar episodes get a prior edge
    semantic_prior_min: float = 0.5  # cosine needed for a semantic prior edge
    semantic_prior_scale: float = 0.5  # prior weight = scale * cosine
    name_edge: float = 0.5  # prior weight linking memories that share a name (person, place…)
    name_edge_k: int = 3  # a new memory is linked to the latest k memories per shared name
    max_sources: int = 20  # spreading sources are the best base nodes above θ, capped
    common_cap: int = 1000  # BM25 skips terms found in more memories than this (speed bound)
    spread: bool = True  # False: the "no spreading" ablation
    hebbian: bool = True  # False: no Hebbian learning from retrievals ("cold")
    paper_theta: float = 0.6  # hela-paper: θ on (cos+1)/2 + α·overlap
    paper_beta: float = 0.1  # hela-paper: β


@dataclass
class StreamingParams:
    """streaming-memory constants (defaults from its published configuration)."""

    w_recency: float = 0.2
    w_frequency: float = 0.1
    w_emotion: float = 0.15
    w_association: float = 0.5
    w_connection: float = 0.3
    recency_hours: float = 24.0  # recency = exp(-h / 24), h since last retrieval
    connection_hours: float = 168.0  # connection decays with exp(-h / 168)
    temperature: float = 0.15  # softmax temperature over scores
    diversity: float = 0.5  # MMR penalty weight against already-selected memories
    candidates: int = 200  # only the best-scoring candidates enter selection


@dataclass
class GateParams:
    """The relevance gate: when a memory is good enough to be put in front of the model.

    Similarities are plain cosines of the embedder (absolute, not relative to the pool).
    A question about the user's own life (first person or a date of their calendar) needs
    ``personal_min``; a message about it that only tells (asks nothing: "I work as a nurse
    at the city hospital.") needs ``same_subject_min``, a memory on its own subject; any
    other request (a task, a general question) ``general_min``.  A
    memory must also be within ``relative_margin`` of the best statement; a memory whose
    user words hold no statement (only a request or question) never enters.  A keyword the
    memory shares with the message lowers its bar by ``keyword_relief``.  A statement that
    names someone or something the message names ("Tell me about Pixel and Ana": "My sister
    Ana lives in Lisbon") needs at most the bar of a personal question, computed with
    ``named_min`` as its floor (``names_personal``; off: names count as keywords only).  A
    statement that
    shares a name (person, place, pet, event, "my mum") with an admitted memory may come in
    as an association, at most ``associations`` per turn, if its own similarity is at least
    ``association_min``.  Two admitted statements at least ``same_subject_min`` similar to
    each other that share a word of the message speak of the same thing: the older one is
    superseded (left out); two that share a name, or another word and that similarity,
    keep both, the older marked as older.
    """

    enabled: bool = True
    personal_min: float = 0.15
    general_min: float = 0.45
    relative_margin: float = 0.2
    keyword_relief: float = 0.05
    names_personal: bool = True
    named_min: float = 0.15
    associations: int = 2
    association_min: float = 0.0
    same_subject_min: float = 0.3
    # the newer memory must be at least this much newer, unless it says it corrects
    # (`facts.corrects`: "Actually my dog is a beagle, not a terrier.")
    supersede_after_hours: float = 12.0


@dataclass
class Settings:
    """User-facing settings, persisted as JSON in the data folder."""

    backend: str = "local"  # "local": llama.cpp on this computer; "server": an OpenAI-compatible server
    server_url: str = ""  # e.g. http://127.0.0.1:8080 (llama-server, vLLM, Ollama, LM Studio...)
    server_model: str = ""  # the model name the server lists; empty: its only model
    server_api_key: str = field(default="", repr=False)  # never printed, logged or exported
    server_timeout: float = 120.0  # seconds without a byte from the server before giving up
    model_path: str = ""  # empty: the bundled SmolLM2-135M-Instruct
    n_gpu_layers: int = -1  # -1: all layers when llama.cpp supports GPU offload, else 0
    n_ctx: int = 4096
    n_threads: int = 0  # 0: llama.cpp's default for this machine
    temperature: float = 0.7
    top_p: float = 0.9
    max_answer_tokens: int = 256
    # the chat's own earlier exchanges shown to the model (-1: as many as fit).  A small
    # model copies its own earlier answers: in one long chat SmolLM2-135M opened 22 of 26
    # answers alike and took on a persona ("your blog"), measured (docs/benchmarks.md);
    # what was said earlier still comes back as memories when it matters
    history_exchanges: int = HISTORY_EXCHANGES
    # "What do you know about me?" answered by the app with the user's own words, listed
    # (`hela_desktop.about_you`); False: the model answers it from those memories (the
    # small default model answered with a made-up life every time, QA pass 24)
    list_about_you: bool = True
    reretrieve_every: int = 10  # N: re-retrieve every N generated tokens (1..20)
    lookback_tokens: int = 60  # L: the last L generated tokens form the query
    blend_user_message: float = 0.5  # weight of the user message in the live query
    max_memories: int = 5  # cap on memories in the prompt (1..15)
    token_budget: int = 400  # memory block budget, in model tokens
    profile: str = "hela"  # retrieval profile name (see hela_desktop.profiles)
    swap_margin: float = 0.05  # gain a newcomer needs, in units of the ranking's best-minus-median range
    swap_cost_weight: float = 0.5  # extra gain (score-range units) a swap needs per 100 tokens it costs
    swap_time_budget: float = 0.10  # swaps may pause an answer for at most this share of its generation time
    swap_prefetch: bool = True  # evaluate swapped-in lines on a second context beside generation
    swap_mode: str = "splice"  # "splice": edit the KV cache in place; "exact": re-evaluate
    async_retrieval: bool = True  # re-retrieve beside generation instead of pausing it
    # measured on the default model: "private assistant" made it refuse ("as a private
    # assistant, I don't have access to personal data") even with the answer in its prompt,
    # and a self-description ("You are HeLa, …") was copied into answers ("You're HeLa, …")
    system_prompt: str = (
        "Answer the user's message briefly and helpfully. "
        "Use what the user told you before when it helps."
    )
    idle_minutes: float = 2.0  # idle time before consolidation and forgetting run
    backup_keep: int = 7  # automatic backups of the memory file kept (0: none are made)
    backup_every_days: float = 1.0  # an idle moment makes one when the newest is this old
    hela: HelaParams = field(default_factory=HelaParams)
    streaming: StreamingParams = field(default_factory=StreamingParams)
    gate: GateParams = field(default_factory=GateParams)

    # ---- persistence -------------------------------------------------------------
    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Settings:
        """Build settings from a dict, ignoring unknown keys (older/newer files)."""
        if not isinstance(data, dict):
            raise SettingsError(f"expected a JSON object, got {type(data).__name__}")
        s = cls(**_typed(cls, data, ""))
        if isinstance(data.get("hela"), dict):
            s.hela = HelaParams(**_typed(HelaParams, data["hela"], "hela."))
        if isinstance(data.get("streaming"), dict):
            s.streaming = StreamingParams(**_typed(StreamingParams, data["streaming"],
                                                   "streaming."))
        if isinstance(data.get("gate"), dict):
            s.gate = GateParams(**_typed(GateParams, data["gate"], "gate."))
        s.validate()
        return s

    def validate(self) -> None:
        """Clamp values to their documented ranges."""
        self.reretrieve_every = int(min(20, max(1, self.reretrieve_every)))
        self.max_memories = int(min(15, max(1, self.max_memories)))
        self.lookback_tokens = int(max(4, self.lookback_tokens))
        self.swap_time_budget = float(min(100.0, max(0.0, self.swap_time_budget)))
        self.n_ctx = int(min(MAX_N_CTX, max(512, self.n_ctx)))
        # at most half the context: the message, the chat so far and the answer need the
        # rest (5,000 with a context of 2,048 left no room, and a turn hung on it)
        self.token_budget = int(min(max(32, self.token_budget), max(32, self.n_ctx // 2)))
        self.max_answer_tokens = int(min(self.n_ctx // 2, max(1, self.max_answer_tokens)))
        self.history_exchanges = int(min(1000, max(-1, self.history_exchanges)))
        self.n_threads = int(min(256, max(0, self.n_threads)))
        self.n_gpu_layers = int(max(-1, self.n_gpu_layers))
        self.temperature = float(min(5.0, max(0.0, self.temperature)))
        self.top_p = float(min(1.0, max(0.01, self.top_p)))
        self.blend_user_message = float(min(1.0, max(0.0, self.blend_user_message)))
        self.swap_margin = float(max(0.0, self.swap_margin))
        self.swap_cost_weight = float(max(0.0, self.swap_cost_weight))
        self.idle_minutes = float(min(1440.0, max(0.1, self.idle_minutes)))
        self.backup_keep = int(min(365, max(0, self.backup_keep)))
        self.backup_every_days = float(min(365.0, max(0.01, self.backup_every_days)))
        if self.swap_mode not in ("splice", "exact"):
            raise SettingsError(f"swap_mode: must be splice or exact, got {self.swap_mode!r}")
        if self.profile not in PROFILES:  # every turn's retrieval would fail on it
            raise SettingsError(f"profile: must be one of {', '.join(PROFILES)}, "
                                f"got {self.profile!r}")
        if self.backend not in ("local", "server"):
            self.backend = "local"
        self.server_timeout = float(min(3600.0, max(0.1, self.server_timeout)))

    def with_overrides(self, **overrides) -> Settings:
        """A validated copy with `overrides` applied (``None``: keep the current value).

        The one way the command line, the app's start-up and the benchmarks change settings.
        Each key must be a top-level setting and each value of its type (as in
        ``settings.json``; an integer is a fine float); a value outside the setting's
        documented range (one :meth:`validate` would change) raises SettingsError naming
        the key, rather than being clamped.  `self` is left unchanged.
        """
        import copy

        given = {k: v for k, v in overrides.items() if v is not None}
        names = {f.name for f in fields(self)} - {"hela", "streaming", "gate"}
        unknown = sorted(set(given) - names)
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(unknown)}")
        typed = _typed(type(self), given, "")
        out = copy.deepcopy(self)
        for k, v in typed.items():
            setattr(out, k, v)
        wanted = copy.deepcopy(out)
        out.validate()
        for k in typed:
            if getattr(out, k) != getattr(wanted, k):
                raise SettingsError(f"{k}: {getattr(wanted, k)!r} is out of range (the nearest "
                                    f"allowed value is {getattr(out, k)!r})")
        return out

    @classmethod
    def load(cls, data_dir: Path) -> Settings:
        path = Path(data_dir) / SETTINGS_FILE
        if not path.exists():
            return cls()
        try:
            return cls.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, TypeError, AttributeError, RecursionError) as exc:
            raise SettingsError(
                f"{path}: settings file is not valid ({exc}); fix or delete it to use defaults"
            ) from exc

    def save(self, data_dir: Path) -> None:
        """Write atomically: a kill mid-write leaves the old file intact."""
        from .paths import private_data_dir, write_private_text

        path = Path(data_dir) / SETTINGS_FILE
        private_data_dir(path.parent)
        write_private_text(path, json.dumps(self.to_dict(), indent=2))

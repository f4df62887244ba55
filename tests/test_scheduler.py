"""The idle scheduler: runs a pass when idle, not again until new activity, yields to the
user, never uses the model while a chat holds it.  Real store, embedder and model."""

from __future__ import annotations

import threading
import time

import pytest
from test_consolidate import PARAMS, build_conversation  # noqa: E402

from hela_desktop.consolidate import ConsolidationParams
from hela_desktop.embedder import Embedder
from hela_desktop.forgetting import ForgettingParams
from hela_desktop.loader import AssistantLoader
from hela_desktop.scheduler import IdleScheduler


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture()
def assistant(tmp_path, embedder):
    a = AssistantLoader(tmp_path, embedder=embedder)  # the model loads when a pass needs it
    yield a
    a.close()


def _wait(pred, timeout: float) -> bool:
    end = time.time() + timeout
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def test_idle_pass_runs_once_per_idle_period(assistant):
    build_conversation(assistant.engine, hebbian_rounds=0)
    reports: list = []
    # no hubs at this δ_hub: the pass needs no model call; everything is 60 days old and
    # most episodes have only temporal/semantic priors, so forgetting has work
    sched = IdleScheduler(assistant, on_report=reports.append, idle_minutes=0.005,
                          check_seconds=0.1,
                          consolidation=ConsolidationParams(hub_degree=50.0),
                          forgetting=ForgettingParams(max_degree=0.9, stale_days=30))
    try:
        sched.touch()
        assert _wait(lambda: len(reports) >= 1, 120), "no idle pass"
        rep = reports[0]
        assert rep.trigger == "idle" and rep.error is None and not rep.yielded
        assert rep.consolidation["hubs"] == 0
        archived = [a["episode_id"] for a in rep.forgetting["archived"]]
        assert archived and all(e not in assistant.engine.index.pos for e in archived)
        time.sleep(1.0)
        assert len(reports) == 1  # not again without new activity
        sched.touch()
        assert _wait(lambda: len(reports) >= 2, 120), "no pass after new activity"
        assert reports[1].forgetting["archived"] == []
        assert sched.last_report is reports[1]
    finally:
        sched.shutdown()
    acts = [a["job"] for a in assistant.store.activity()]
    assert acts.count("consolidate") == 2 and acts.count("forget") == 2


def test_not_idle_while_a_chat_holds_the_model(assistant):
    build_conversation(assistant.engine, hebbian_rounds=0)
    reports: list = []
    sched = IdleScheduler(assistant, on_report=reports.append, idle_minutes=0.002,
                          check_seconds=0.1, consolidation=ConsolidationParams(hub_degree=50.0))
    try:
        with assistant.model_lock:  # an answer is being generated
            time.sleep(1.5)
            assert reports == [] and sched.idle_seconds() == 0.0
        assert _wait(lambda: len(reports) == 1, 120)
    finally:
        sched.shutdown()


@pytest.mark.slow
def test_job_yields_to_the_user(assistant):
    build_conversation(assistant.engine)
    reports: list = []
    sched = IdleScheduler(assistant, on_report=reports.append, idle_minutes=60, start=False,
                          consolidation=ConsolidationParams(**PARAMS))
    assistant.load_model()  # the model is loaded, so the job holds the lock only for a cluster
    # a chat holds the model: the job yields without calling it
    with assistant.model_lock:
        rep = sched.run_pass("manual")
    assert rep.yielded and rep.consolidation["distilled"] == 0
    assert rep.forgetting is None

    # the user starts typing during a model call: the call stops, nothing of it is written
    result: dict = {}
    t = threading.Thread(target=lambda: result.update(rep=sched.run_pass("manual")))
    t.start()
    # wait until the model is busy with the first cluster (the lock is held by the job)
    assert _wait(lambda: sched.model_lock.locked(), 120)
    time.sleep(0.3)
    sched.touch()
    t.join(120)
    rep = result["rep"]
    assert rep.yielded and rep.consolidation["distilled"] == 0
    n_done = assistant.store.conn.execute(
        "SELECT COUNT(*) FROM meta WHERE key LIKE 'consolidate.done.%'").fetchone()[0]
    assert n_done == 0 and assistant.store.integrity_ok()
    assert assistant.store.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0] == 0
    assert rep.seconds < 60  # it did not finish the cluster's answer first
    sched.shutdown()


def test_run_now_and_shutdown(assistant):
    build_conversation(assistant.engine, hebbian_rounds=0)
    reports: list = []
    starts: list = []
    sched = IdleScheduler(assistant, on_report=reports.append, on_start=starts.append,
                          idle_minutes=60, check_seconds=5,
                          consolidation=ConsolidationParams(hub_degree=50.0))
    try:
        assert sched.run_now()
        assert _wait(lambda: len(reports) == 1, 120)
        assert reports[0].trigger == "manual" and not sched.busy
        assert [e.trigger for e in starts] == ["manual"]  # told when it began, then after
    finally:
        sched.shutdown()
    assert not sched.run_now()  # stopped


def test_no_idle_pass_repeats_a_manual_one(assistant):
    """Reflect now, then idle: a whole manual pass counts as done, so no idle pass follows
    to report "nothing new" until there is new activity."""
    build_conversation(assistant.engine, hebbian_rounds=0)
    reports: list = []
    sched = IdleScheduler(assistant, on_report=reports.append, idle_minutes=0.005,
                          check_seconds=0.1, consolidation=ConsolidationParams(hub_degree=50.0))
    try:
        sched.touch()  # activity: an idle pass would be due in 0.3 s
        assert sched.run_now()
        assert _wait(lambda: len(reports) >= 1, 120)
        time.sleep(1.5)
        assert [r.trigger for r in reports] == ["manual"]
        sched.touch()  # new activity: the idle pass comes again
        assert _wait(lambda: len(reports) >= 2, 120), "no idle pass after new activity"
        assert reports[1].trigger == "idle"
    finally:
        sched.shutdown()


def test_a_model_switched_away_from_is_not_used_for_reflection(assistant, tmp_path):
    """After a switch that failed (a mistyped server or file), idle reflection does not
    fall back to the model the user switched away from: it tries the chosen one, and says
    why it could not distil, touching no memory."""
    from hela_desktop.config import Settings
    from hela_desktop.llm import ModelError

    build_conversation(assistant.engine)
    old = assistant.load_model().llm
    used_before = old.evaluated_tokens
    chosen = Settings()
    chosen.model_path = str(tmp_path / "typo.gguf")
    with pytest.raises(ModelError):
        assistant.switch_model(chosen)
    sched = IdleScheduler(assistant, idle_minutes=60, start=False,
                          consolidation=ConsolidationParams(**PARAMS))
    rep = sched.run_pass("manual")
    assert rep.error and "typo.gguf" in rep.error and rep.consolidation is None
    assert old.evaluated_tokens == used_before  # (it was closed: the counter stands still)
    assert assistant.store.conn.execute("SELECT COUNT(*) FROM knowledge").fetchone()[0] == 0
    sched.shutdown()


def test_using_the_window_holds_an_idle_pass_back(assistant):
    """QA pass 21: an idle pass began while the Memories tab was being clicked through,
    since only typing a message counted as activity.  A click, key or scroll in the window
    (`present`) holds an idle pass back for `idle_minutes`, and stops one that runs; a pass
    asked for (Reflect now) goes on; nothing new is there to reflect on because of it."""
    build_conversation(assistant.engine, hebbian_rounds=0)
    reports: list = []
    sched = IdleScheduler(assistant, on_report=reports.append, idle_minutes=0.01,  # 0.6 s
                          check_seconds=0.1, consolidation=ConsolidationParams(hub_degree=50.0))
    try:
        seq = sched._activity_seq
        end = time.time() + 2.5
        while time.time() < end:  # four times the idle time, in use all along
            sched.present()
            time.sleep(0.2)
        assert reports == [] and sched._activity_seq == seq
        assert _wait(lambda: len(reports) == 1, 120), "no idle pass once the window rests"
        # while a pass runs: an idle one yields to the window in use, one asked for does not
        for trigger, yields in (("manual", False), ("idle", True)):
            sched._running = trigger  # (as `run_pass` sets it)
            sched._yield.clear()
            sched.present()
            assert sched.should_yield() is yields, trigger
        sched._running = None
    finally:
        sched.shutdown()

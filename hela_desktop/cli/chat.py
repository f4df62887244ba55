"""``hela-desktop chat`` (and ``--terminal``): the terminal chat, one turn or interactive.

:class:`TerminalChat` runs turns through ``Assistant.chat`` and prints their events, as
text or as JSON lines; :func:`cmd_chat` loads the model and the memory, then hands over.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading

from .. import __version__
from ..words import terminal_safe
from .common import (
    EXIT_ENVIRONMENT,
    UsageError,
    an_id,
    at_least,
    data_dir_option,
    error,
    in_range,
    lock_folder,
    model_options,
    no_such,
    settings_from_args,
)

# llama.cpp's seeds are 32-bit and its largest one (0xFFFFFFFF) means "a random seed"
MAX_SEED = 2**32 - 2


def add_cli(sub) -> None:
    chat = sub.add_parser("chat", parents=[data_dir_option(), model_options()],
                          help="terminal chat (interactive, or one turn with --message)")
    chat.add_argument("--message", "-m", help="send one message and exit")
    chat.add_argument("--json", action="store_true", help="print events as JSON lines")
    which = chat.add_mutually_exclusive_group()  # both: one would be silently ignored
    which.add_argument("--conversation", type=an_id, help="continue this conversation id")
    which.add_argument("--new", action="store_true", help="start a new conversation")
    chat.add_argument("--max-tokens", type=at_least(1), help="longest answer, in tokens (default: the setting; at most half the "
                      "context size)")
    chat.add_argument("--temperature", type=at_least(0.0, float),  # above 5: the setting says
                      help="sampling temperature, 0 (greedy) to 5 (default: the setting)")
    chat.add_argument("--seed", type=in_range(0, MAX_SEED),
                      help=f"sampling seed, 0 to {MAX_SEED} (reproducible answers)")
    chat.set_defaults(func=cmd_chat)


def _dim(text: str) -> str:
    """Grey on a terminal; plain text when the output is piped or saved (or $NO_COLOR)."""
    if os.environ.get("NO_COLOR") or not sys.stdout.isatty():
        return text
    return f"\033[2m{text}\033[0m"


CHAT_COMMANDS = "/new starts a new chat, /quit (or Ctrl-D) leaves, /help shows this"
FORGET_HELP = ("To forget something you said, ask: \"Forget that my PIN is 4821\", \"Forget "
               "about Tom\", \"Forget what I just said\" (the memories are deleted, "
               "restorable with `hela-desktop memories restore ID`).")


def chat_command(line: str) -> str | None:
    """The interactive chat's word for a command line (``/new``, ``/quit``, ``/help``, or
    ``unknown``), None for a message.  Only one slash word is a command: "/etc/hosts is
    missing, why?" is a message."""
    word = line.strip()
    if not (word.startswith("/") and word[1:].isalpha()):
        return None
    word = word.lower()
    if word in ("/quit", "/exit"):
        return "/quit"
    return word if word in ("/new", "/help") else "unknown"


def print_event(ev, recalls: dict[int, dict] | None = None) -> None:
    """One chat event as the terminal shows it: recalled memories, answer text, swaps, the
    closing statistics line and, as in the window, the memories the answer drew on in the
    user's words (`recalls`: what the turn's events said of each memory, by id), so that an
    answer can be checked against them."""
    from ..events import (
        DRIFTED_NOTE,
        FORGET_FOOTER,
        LISTED_FOOTER,
        NOT_FROM_MEMORIES,
        DoneEvent,
        MemoriesEvent,
        MemoryUpdateEvent,
        TokenEvent,
        cut_short,
    )
    if isinstance(ev, MemoriesEvent):
        if ev.memories:
            ids = " ".join(f"#{m.episode_id}" for m in ev.memories)
            print(_dim(f"  recalled {ids}"), flush=True)
    elif isinstance(ev, TokenEvent):
        print(terminal_safe(ev.text), end="", flush=True)
    elif isinstance(ev, MemoryUpdateEvent):
        add = " ".join(f"+#{m.episode_id}" for m in ev.added)
        rem = " ".join(f"-#{i}" for i in ev.removed)
        print(_dim(f" ⟲[{add} {rem}]"), end="", flush=True)
    elif isinstance(ev, DoneEvent) and ev.forget is not None:
        print("\n" + _dim(f"  {FORGET_FOOTER}"), flush=True)
    elif isinstance(ev, DoneEvent) and ev.listed is not None:
        print("\n" + _dim(f"  {LISTED_FOOTER}"), flush=True)
    elif isinstance(ev, DoneEvent) and ev.failed and not ev.text:
        pass  # the server failed before the answer began: the error line says it all
    elif isinstance(ev, DoneEvent):
        tail = (f" (cut short: {cut_short(ev.failed_by)})" if ev.failed
                else " (interrupted)" if ev.interrupted else "")
        if ev.repeated:
            tail += f"; asked before: memory #{ev.episode_id}"
        if ev.drifted:
            tail += f"; {DRIFTED_NOTE}"
        print("\n" + _dim(f"  {ev.tokens} tokens, {ev.speed:.1f} tok/s, "
                          f"{ev.swaps_shown} swaps{tail}"), flush=True)
        if ev.unrecalled:  # the only sign that an answer about the user is made up
            print(f"  {NOT_FROM_MEMORIES}", flush=True)
        _print_sources(ev, recalls or {})


def _print_sources(ev, recalls: dict[int, dict]) -> None:
    """The lines under a finished answer: the correction it noted, the warning, and the
    memories it drew on (`sources.answer_sources`), as the window shows them."""
    from ..sources import answer_sources, source_lines

    used = dict.fromkeys(i for _, _, ids in ev.timeline for i in ids)
    drew = answer_sources((recalls[i] for i in used if i in recalls),
                          used=ev.drew_on, doubt=ev.doubt, corrects=ev.corrects,
                          respelled=ev.respelled)
    if drew.read_as:  # the message misspelt a name of the user's life
        print(_dim(f"  {drew.read_as}"), flush=True)
    if drew.noted:  # the message corrected what the user said before
        print(_dim(f"  {drew.noted}"), flush=True)
    if drew.doubt:  # the answer gives older news, or used none of what was recalled
        print(f"  {drew.doubt}", flush=True)
    for head, lines in source_lines(drew):
        if len(lines) == 1:
            print(_dim(f"  {head}: {lines[0]}"), flush=True)
        else:
            print(_dim(f"  {head}:\n" + "\n".join(f"    {t}" for t in lines)), flush=True)


class TerminalChat:
    """Chat turns on a loaded `Assistant`, printed as they stream.

    `as_json`: one JSON line per event instead of text.  `one_shot`: a single ``--message``
    turn, where Ctrl-C and a server failure end the process instead of the turn.
    """

    def __init__(self, assistant, *, as_json: bool = False, seed: int | None = None,
                 one_shot: bool = False):
        self.assistant = assistant
        self.as_json = as_json
        self.seed = seed
        self.one_shot = one_shot

    def turn(self, message: str, conversation: int | None, label: str = "") -> int | None:
        """Send `message`; returns the conversation it went to.  Ctrl-C stops the answer
        (the partial answer is stored, marked interrupted).  `label` ("hela> ") opens the
        answer's line once there is something for it: the recalled memories print on their
        own line before it, and a refused message prints none."""
        from ..events import DoneEvent, MemoriesEvent, MemoryUpdateEvent, to_json
        from ..server_llm import ServerError

        gen = self.assistant.chat(message, conversation, threading.Event(), seed=self.seed)
        done = None
        recalls: dict[int, dict] = {}
        try:
            for ev in gen:
                if isinstance(ev, DoneEvent):
                    done = ev
                elif isinstance(ev, MemoriesEvent | MemoryUpdateEvent):
                    got = ev.memories if isinstance(ev, MemoriesEvent) else ev.added
                    recalls.update({m.episode_id: m.to_dict() for m in got})
                if self.as_json:
                    print(to_json(ev), flush=True)
                    continue
                if label and not isinstance(ev, MemoriesEvent):
                    print(label, end="", flush=True)
                    label = ""
                print_event(ev, recalls)
        except BrokenPipeError:  # the reader (`| head`) went away: keep what was said
            gen.close()  # (the partial answer, marked interrupted) before the store closes
            raise
        except KeyboardInterrupt:
            gen.close()  # stores the partial answer, marked interrupted
            print("\n" + _dim("  (interrupted; partial answer kept)"), file=sys.stderr)
            if self.one_shot:
                raise
        except ServerError as exc:  # the partial answer is stored, marked interrupted
            kept = (" (partial answer kept, marked interrupted)" if done is not None and done.text
                    else "")  # (before the first token nothing is kept)
            print(f"{'' if self.as_json else chr(10)}error: {exc}{kept}", file=sys.stderr,
                  flush=True)
            if self.one_shot:
                raise SystemExit(EXIT_ENVIRONMENT) from exc
        return done.conversation_id if done else conversation

    def send(self, message: str, conversation: int | None) -> int:
        """The ``--message`` turn: its exit status."""
        from ..assistant import AnswerNotSaved, MessageTooLong

        try:
            went = self.turn(message, conversation)
            if went is not None and not self.as_json:  # (what `--conversation` needs to go
                # on with it: QA pass 51b could not tell)
                print(_dim(f"  (conversation {went}: go on with --conversation {went})"),
                      file=sys.stderr)
        except MessageTooLong as exc:
            return error(str(exc))
        except AnswerNotSaved as exc:  # the process ends: it cannot be kept for later
            return error(f"{exc.reason} — the answer above was not saved", EXIT_ENVIRONMENT)
        return 0

    def loop(self, conversation: int | None) -> int:
        """Read lines until end of input or /quit; /new starts a new conversation."""
        from ..assistant import MessageTooLong
        from ..store import StoreError

        while True:
            try:
                line = input("\nyou> ")
            except EOFError:
                print()
                return 0
            cmd = chat_command(line)
            if cmd == "/quit":
                return 0
            if cmd == "/new":
                conversation = None
                print("(new conversation)")
            elif cmd is not None:  # /help, or a mistyped command: never sent to the model
                print(("" if cmd == "/help" else f"unknown command {line.strip()}: ")
                      + CHAT_COMMANDS)
                if cmd == "/help":
                    print(FORGET_HELP)
            elif line.strip():
                try:
                    conversation = self.turn(line, conversation, label="hela> ")
                except (MessageTooLong, StoreError) as exc:  # the chat goes on
                    print(f"\nerror: {exc}", file=sys.stderr)


def _load_llm(s):
    """The model the settings name, loaded (or the server, checked): before the data folder
    is touched, so a bad model or an unreachable server writes nothing."""
    from ..llm import LocalLLM
    from ..server_llm import server_llm

    if s.backend == "server":
        return server_llm(s).connect()
    return LocalLLM.from_settings(s)


def _show_progress(done: int, total: int) -> None:
    """A long prompt takes a while to read: say how far it got."""
    print("\r" + _dim(f"  reading the prompt: {done}/{total} tokens"),
          end="\n" if done >= total else "", file=sys.stderr, flush=True)


def _greet(assistant, llm, s, conv: int | None = None) -> None:
    """The chat's first lines: where answers come from, the model and memories, the keys,
    and which chat goes on (`conv`: the latest, unless --new; its earlier messages are part
    of what the model is shown)."""
    if s.backend == "server":
        from ..server_llm import privacy_warning, where_answers_come_from

        print(where_answers_come_from(llm.url, llm.model))
        warn = privacy_warning(llm.url)
        if warn:
            print(f"warning: {warn}", file=sys.stderr)
    from ..assistant import describe_model, model_label

    # the model as the window names it ("SmolLM2-135M-Instruct (bundled, 16-bit)"; QA pass
    # 25 read the 4-bit file's name here and "16-bit" under the answers)
    print(f"HeLa Desktop {__version__} — terminal chat. Model: "
          f"{model_label(describe_model(llm))}, {llm.device}. Memories: {len(assistant.engine)}. "
          "Ctrl-C stops an answer, Ctrl-D quits, /new starts a new chat, /help lists commands.")
    from ..paths import is_bundled_model

    if s.backend != "server" and is_bundled_model(llm.path):
        from ..events import SMALL_MODEL_NOTE

        print(f"{SMALL_MODEL_NOTE} For better answers, start it with --model FILE.gguf or "
              "--server URL.")
    chat = next((c for c in assistant.store.conversations() if c["id"] == conv), None)
    if chat is not None:
        import time

        from ..prompt import relative_day, shorten
        from ..words import count

        try:
            last = f"; last active {relative_day(chat['updated_at'], time.time())}"
        except (TypeError, ValueError, OverflowError, OSError):
            last = ""
        print(_dim(f"Continuing the chat “{shorten(chat['title'], 60)}” "
                   f"({count(chat['messages'], 'message')}{last}); /new starts another."))


def _conversation(args: argparse.Namespace, store) -> int | None:
    """The conversation to continue: --conversation, else none with --new or --message,
    else the latest.  An unknown id is a usage error."""
    if args.conversation is not None:
        if not store.conversation_exists(args.conversation):
            raise UsageError(no_such("conversation", args.conversation, store))
        return args.conversation
    if args.new or args.message is not None:
        return None
    convs = store.conversations()
    return convs[0]["id"] if convs else None


def _daily_backup(store, s) -> None:
    """The daily backup, as the app makes it while idle (the terminal has no idle time):
    quietly, as a chat that went well ends, when one is due; a failure is a warning.  It only reads
    (nothing is logged): a file another program is writing gets one error, the chat's."""
    import sqlite3

    from ..backups import backup_if_due
    from ..store import StoreError

    try:
        backup_if_due(store, keep=s.backup_keep, every_days=s.backup_every_days, log=False)
    except (OSError, StoreError, sqlite3.Error) as exc:
        print(f"warning: the daily backup of your memories failed ({exc}); they are as "
              "they were", file=sys.stderr)


def cmd_chat(args: argparse.Namespace) -> int:
    from ..embedder import EmbedderError
    from ..llm import ModelError
    from ..loader import open_assistant
    from ..server_llm import ServerError

    s = settings_from_args(args)
    if args.message is not None and not args.message.strip():
        return error("empty message: nothing to send (give --message some text)")
    try:
        llm = _load_llm(s)
    except (ModelError, ServerError) as exc:
        return error(str(exc))
    # the data folder's lock, held for the whole chat (FolderBusy: exit 3): taken only
    # now, so that a refused option or model leaves no folder behind
    lock = lock_folder(args)
    try:
        try:
            assistant = open_assistant(args.data_dir, s, llm=llm)
        except (EmbedderError, ModelError) as exc:
            return error(str(exc))
        try:
            if not args.json:
                assistant.on_progress = _show_progress
            conv = _conversation(args, assistant.store)
            session = TerminalChat(assistant, as_json=args.json, seed=args.seed,
                                   one_shot=args.message is not None)
            if args.message is not None:
                rc = session.send(args.message, conv)
            else:
                _greet(assistant, llm, s, conv)
                rc = session.loop(conv)
            if rc == 0:  # after the chat, with what it said (a failed one has its error)
                _daily_backup(assistant.store, s)
            return rc
        finally:
            assistant.close()
    finally:
        if lock is not None:
            lock.release()

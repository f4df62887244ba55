"""Edit and resend: the dialog that says what resending an earlier message takes back."""

from __future__ import annotations

from ..words import count
from .text_dialog import ask_text


def edit_label(later: int, forgotten: int = 0) -> str:
    """The dialog's words: resending takes back every later exchange of the chat, and the
    memories made from them, so an early message says how many; and that memories deleted
    on a request to forget among them stay deleted (QA pass 28: the "Forget that I drive
    a Volvo." exchange vanished from the chat, the only record of how to restore it)."""
    took = "" if later <= 0 else (
        "Resending it takes back the answer to it and the "
        + ("1 later exchange" if later == 1 else f"{later} later exchanges")
        + " of this chat, with their memories")
    if forgotten <= 0:
        return f"Your message. {took}:" if took else "Your message:"
    where = "there at your request" if took else "by this request"
    kept = (f"The {count(forgotten, 'memory', 'memories')} deleted {where} "
            + ("stays deleted (Memories ▸ Archive restores it)." if forgotten == 1
               else "stay deleted (Memories ▸ Archive restores them)."))
    return f"Your message. {took + '. ' if took else ''}{kept}\n\nYour message:"


def ask_edit_and_resend(win, n: int, text: str) -> None:
    """Ask for the new text of the chat's n-th message (0-based), then resend it."""
    later = len(win.session.user_messages()) - n - 1
    new, ok = ask_text(win, "Edit and resend", edit_label(later, win.session.forgotten_after(n)),
                       text, "Resend" if later <= 0 else "Resend and take back")
    new = new.strip()
    if ok and new:
        win.edit_and_resend(n, new)

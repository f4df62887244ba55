"""Edit and resend: the dialog that says what resending an earlier message takes back."""

from __future__ import annotations

from .text_dialog import ask_text


def edit_label(later: int) -> str:
    """The dialog's words: resending takes back every later exchange of the chat, and the
    memories made from them, so an early message says how many."""
    if later <= 0:
        return "Your message:"
    n = "1 later exchange" if later == 1 else f"{later} later exchanges"
    return (f"Your message. Resending it takes back the answer to it and the {n} of this "
            "chat, with their memories:")


def ask_edit_and_resend(win, n: int, text: str) -> None:
    """Ask for the new text of the chat's n-th message (0-based), then resend it."""
    later = len(win.session.user_messages()) - n - 1
    new, ok = ask_text(win, "Edit and resend", edit_label(later), text,
                       "Resend" if later <= 0 else "Resend and take back")
    new = new.strip()
    if ok and new:
        win.edit_and_resend(n, new)

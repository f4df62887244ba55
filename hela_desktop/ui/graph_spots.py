"""Plane geometry for placing graph labels, on numpy arrays (no Qt): which of many
candidate label rectangles cover a link line, a dot or another label, and which leader
lines cross links.  Rectangles are rows ``(left, top, right, bottom)``, segments rows
``(x0, y0, x1, y1)``, all in scene pixels (y down).

`graph_labels` scores every place around a dot with these: a label lying across links
or beside another memory's dot read as that memory's (QA pass 41: "which label belongs
to which dot is hard to see", "one lies across lines").
"""

from __future__ import annotations

import numpy as np


def rects_overlap(a: np.ndarray, b: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """(K, M) bool: rectangle ``a[k]`` overlaps ``b[m]`` (closer than `margin` counts)."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)), dtype=bool)
    a, b = a[:, None, :], b[None, :, :]
    return ((a[..., 0] < b[..., 2] + margin) & (b[..., 0] < a[..., 2] + margin)
            & (a[..., 1] < b[..., 3] + margin) & (b[..., 1] < a[..., 3] + margin))


def rects_hit_segments(rects: np.ndarray, segs: np.ndarray) -> np.ndarray:
    """(K, E) bool: segment ``segs[e]`` passes through rectangle ``rects[k]`` (Liang-Barsky
    clipping, for all pairs at once)."""
    if not len(rects) or not len(segs):
        return np.zeros((len(rects), len(segs)), dtype=bool)
    x0, y0 = segs[None, :, 0], segs[None, :, 1]
    dx, dy = segs[None, :, 2] - x0, segs[None, :, 3] - y0
    left, top = rects[:, None, 0], rects[:, None, 1]
    right, bottom = rects[:, None, 2], rects[:, None, 3]
    lo = np.zeros((len(rects), len(segs)))
    hi = np.ones((len(rects), len(segs)))
    ok = np.ones((len(rects), len(segs)), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
            p = np.broadcast_to(p, lo.shape)
            q = np.broadcast_to(q, lo.shape)
            flat = p == 0
            ok &= ~(flat & (q < 0))  # parallel to this side and outside it
            r = q / np.where(flat, 1.0, p)
            lo = np.where(~flat & (p < 0), np.maximum(lo, r), lo)
            hi = np.where(~flat & (p > 0), np.minimum(hi, r), hi)
    return ok & (lo <= hi)


def segments_cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(K, E) bool: segment ``a[k]`` crosses segment ``b[e]`` (touching at an end point,
    as a leader does at its own dot, does not count)."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)), dtype=bool)
    p, r = a[:, None, :2], a[:, None, 2:] - a[:, None, :2]
    q, s = b[None, :, :2], b[None, :, 2:] - b[None, :, :2]

    def cross(u, v):
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]

    den = cross(r, s)
    qp = q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        t = cross(qp, s) / den
        u = cross(qp, r) / den
    eps = 1e-6
    return (np.abs(den) > 1e-9) & (t > eps) & (t < 1 - eps) & (u > eps) & (u < 1 - eps)


def segments_near_points(segs: np.ndarray, pts: np.ndarray, radius: float) -> np.ndarray:
    """(K, M) bool: segment ``segs[k]`` passes within `radius` of point ``pts[m]``."""
    if not len(segs) or not len(pts):
        return np.zeros((len(segs), len(pts)), dtype=bool)
    a, d = segs[:, None, :2], segs[:, None, 2:] - segs[:, None, :2]
    p = pts[None, :, :2]
    n2 = np.maximum((d * d).sum(-1), 1e-12)
    t = np.clip(((p - a) * d).sum(-1) / n2, 0.0, 1.0)
    near = a + d * t[..., None]
    return np.hypot(*(near - p).transpose(2, 0, 1)) < radius


def nearest_points(rects: np.ndarray, x: float, y: float) -> np.ndarray:
    """(K, 2): the point of each rectangle nearest ``(x, y)`` (where a leader ends)."""
    return np.column_stack([np.clip(x, rects[:, 0], rects[:, 2]),
                            np.clip(y, rects[:, 1], rects[:, 3])])


def distances_to_rects(rects: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(K, M): how far point ``pts[m]`` lies from rectangle ``rects[k]`` (0 inside)."""
    if not len(rects) or not len(pts):
        return np.zeros((len(rects), len(pts)))
    px, py = pts[None, :, 0], pts[None, :, 1]
    dx = np.maximum(np.maximum(rects[:, None, 0] - px, px - rects[:, None, 2]), 0.0)
    dy = np.maximum(np.maximum(rects[:, None, 1] - py, py - rects[:, None, 3]), 0.0)
    return np.hypot(dx, dy)



def open_spots(view: tuple[float, float, float, float], w: float, h: float,
               at: tuple[float, float], reach: float = np.inf) -> list[tuple[float, float]]:
    """Top-left corners of `w` × `h` places over a view ``(left, top, right, bottom)``, a
    grid a line across and half a line down, up to `reach` from the point `at` (for a
    label with no clear room right by its dot)."""
    xs = np.arange(view[0], view[2] - w + 1e-6, max(h, 4.0))
    ys = np.arange(view[1], view[3] - h + 1e-6, max(h / 2, 2.0))
    gx, gy = (g.ravel() for g in np.meshgrid(xs, ys))
    dx = np.maximum(np.maximum(gx - at[0], at[0] - gx - w), 0.0)
    dy = np.maximum(np.maximum(gy - at[1], at[1] - gy - h), 0.0)
    keep = np.hypot(dx, dy) <= reach
    return list(zip(gx[keep].tolist(), gy[keep].tolist(), strict=True))

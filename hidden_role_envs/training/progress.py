"""A progress bar on stderr: tqdm when it is installed, else a plain one."""

from __future__ import annotations

import sys
import time


class TextProgress:
    """A small progress bar for when tqdm is not installed."""

    def __init__(self, total: int, desc: str, unit: str):
        self.total, self.desc, self.unit, self.done = total, desc, unit, 0
        self.start = self.last_draw = time.monotonic()
        self._draw()

    def update(self, count: int = 1) -> None:
        self.done += count
        now = time.monotonic()
        if now - self.last_draw >= 0.2 or self.done >= self.total:
            self.last_draw = now
            self._draw()

    def _draw(self) -> None:
        share = min(self.done / self.total, 1.0) if self.total else 1.0
        filled = int(30 * share)
        rate = self.done / max(time.monotonic() - self.start, 1e-9)
        sys.stderr.write(
            f"\r{self.desc}: {share:4.0%} |{'#' * filled}{' ' * (30 - filled)}| {self.done}/{self.total}"
            f" [{rate:.0f} {self.unit}s/s]"
        )
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()


def progress_bar(total: int, desc: str, enabled: bool = True, unit: str = "step"):
    """A bar with `update(n)` and `close()`, or None when disabled."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return TextProgress(total, desc, unit)
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr)

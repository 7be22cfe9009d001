"""What the conformance suite needs to know of the toy game."""

from __future__ import annotations

from tests.games.toy.game import PASS, PEEK, SCORE
from tests.support import PublicTwin, Twin

CONFIGS: list = []


def playouts(n: int, arguments: dict) -> int:
    return 100


def twins(n: int) -> list[Twin]:
    """Two other seats' colours swapped; the watcher learns by peeking at either."""
    cases = []
    for trial in range(8):
        colours = ["red", "blue"] * 3
        colours = colours[: n + 1]
        colours = colours[trial % 2 :] + colours[: trial % 2]
        watcher = trial % n
        p, q = next((p, q) for p in range(n + 1) for q in range(p + 1, n + 1)
                    if watcher not in (p, q) and colours[p] != colours[q])
        other = colours[:]
        other[p], other[q] = other[q], other[p]

        def learns(env_a, env_b, actor, action, watcher=watcher):
            a, b = env_a.unwrapped.engine, env_b.unwrapped.engine
            kind, k = a.actions.meaning[action]
            target = (actor + k) % n if kind == PEEK else None
            return actor == watcher and target is not None and a.colours[target] != b.colours[target]

        cases.append(Twin(({"colours": colours}, {"colours": other}), watcher, learns, seed=trial, choose=calm))
    return cases


def calm(env, rng, mask) -> int:
    """Random play that mostly passes or scores, so that games last and a peek comes late."""
    legal = mask.nonzero()[0]
    quiet = [a for a in legal if env.unwrapped.actions.kind[a] in (PASS, SCORE)]
    return int(rng.choice(quiet if rng.random() < 0.8 else legal))


def public_twins(n: int) -> list[PublicTwin]:
    """Only whether a seat scored or passed differs."""

    def score_or_pass(env):
        actions = env.unwrapped.actions
        return actions.from_string("score"), actions.from_string("pass")

    return [PublicTwin(score_or_pass, seed=seed) for seed in range(4)]


def check_step(env) -> None:
    engine = env.unwrapped.engine
    for seat in range(engine.num_players):
        colour = env.observe(f"player_{seat}")["observation"][env.unwrapped.observation_fields["colour"]].reshape(-1, 2)
        assert colour[0, engine.colours[seat]] == 1  # every seat knows its own colour


def check_end(env, info: dict, received: dict) -> None:
    engine = env.unwrapped.engine
    winner = f"player_{engine.table.alive.index(True)}"
    assert info["winners"] == [winner]

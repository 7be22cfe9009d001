"""Every kind of event reads as text for every seat that sees it, and as a readable record."""

import numpy as np
import pytest

from hidden_role_envs.core.events import readable
from tests.support import every_game, random_legal


def events_of_random_games(env, seeds):
    """Every event of seeded games of random legal play, the deal's included, in order."""
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            yield from env.last_events
            env.step(None if terminated or truncated else random_legal(rng, obs))


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_every_event_kind_is_declared_with_text_or_none_and_fields(game):
    names = [kind.kind for kind in game.events]
    assert len(set(names)) == len(names)
    for kind in game.events:
        assert kind._fields[0] == "seen_by" and set(kind.fields) == set(kind._fields[1:])


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_every_event_seen_reads_as_a_line_and_a_record(game):
    env = game.env(render_mode="ansi", num_players=game.typical_players).unwrapped
    vocab = game.words(env.config, 0).vocab
    seen = set()
    for event in events_of_random_games(env, range(30)):
        assert type(event) in game.events, f"{event!r} is not a declared kind of {game.name}"
        seen.add(type(event))
        record = readable(event, vocab)
        assert record["kind"] == event.kind
        for viewer in event.seen_by:
            line = env.describe_event(event, viewer)
            assert (line is None) == (event.text is None), event
            assert line is None or line.strip()
    assert seen  # games emit events


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_an_event_as_a_seat_encodes_it_is_the_absolute_encoding_turned_by_its_observer_columns(game):
    """The batched engine encodes each event once, as seat 0 does, and turns it to each observer with
    `EventEncoding.observer_columns`: for every event of seeded games, every seat's own encoding must be that."""
    from hidden_role_envs.core.history import EventEncoding

    for n in game.benchmark_players:
        env = game.env(num_players=n).unwrapped
        encoding = EventEncoding(game.events, n, game.words(env.config, 0).vocab)
        for event in events_of_random_games(env, range(5)):
            absolute = np.zeros(encoding.width, np.float32)
            encoding.encode(event, 0, absolute)
            for observer in range(n):
                seen = np.zeros(encoding.width, np.float32)
                encoding.encode(event, observer, seen)
                assert np.array_equal(seen, absolute[encoding.observer_columns[observer]]), (event, observer)

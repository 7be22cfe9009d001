"""The events engines emit."""

from hidden_role_envs.core.game import Event, new_event


def test_new_event_builds_the_same_event():
    built = new_event(("looked", (0, 2), (0, 1, 2)))
    assert type(built) is Event
    assert built == Event("looked", (0, 2), (0, 1, 2))
    assert (built.kind, built.seen_by, built.data) == ("looked", (0, 2), (0, 1, 2))

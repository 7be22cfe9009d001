"""The toy game's own rules."""

from tests.games.toy import GAME


def test_a_knock_out_ends_the_victims_episode_and_the_last_player_in_wins():
    env = GAME.env(num_players=2)
    env.reset(seed=0, options={"setup": {"colours": ["red", "blue", "red"], "first_player": 0}})
    env.step(env.unwrapped.string_to_action("score"))
    env.step(env.unwrapped.string_to_action("knock out"))
    assert env.terminations["player_0"] and env.rewards["player_0"] == -1.0
    assert env.infos["player_1"]["winners"] == ["player_1"]
    assert env.infos["player_1"]["colour"] == "blue"


def test_a_peek_shows_the_colour_to_the_peeker_only():
    env = GAME.env(num_players=3)
    env.reset(seed=0, options={"setup": {"colours": ["red", "blue", "red", "blue"], "first_player": 0}})
    fields = env.unwrapped.observation_fields["colour"]
    before = [env.observe(f"player_{s}")["observation"][fields].copy() for s in (1, 2)]
    env.step(env.unwrapped.string_to_action("peek +1"))
    assert list(env.observe("player_0")["observation"][fields].reshape(4, 2)[1]) == [0, 1]
    assert all((env.observe(f"player_{s}")["observation"][fields] == b).all() for s, b in zip((1, 2), before))

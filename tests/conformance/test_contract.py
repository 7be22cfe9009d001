"""The contract every registered game keeps: PettingZoo's own tests, spaces, masks, names, docs, render, errors."""

import importlib.util
import pickle
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tests.support import every_game, every_table, random_legal, typical_tables


def make(game, table, **kwargs):
    n, arguments = table
    return game.env(num_players=n, **arguments, **kwargs)


@pytest.mark.parametrize("game, table", every_table())
def test_pettingzoo_api_test(game, table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about dict observations, as for every masked env
        api_test(make(game, table), num_cycles=300)


@pytest.mark.parametrize("game, table", every_table())
def test_pettingzoo_seed_test(game, table):
    seed_test(lambda: make(game, table), num_cycles=300)


@pytest.mark.parametrize("game, table", every_table())
def test_action_names_and_ids_are_exact_inverses(game, table):
    env = make(game, table).unwrapped
    space = env.action_space("player_0")
    names = [env.action_to_string(a) for a in range(space.n)]
    assert len(set(names)) == space.n
    assert [env.string_to_action(s) for s in names] == list(range(space.n))


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_action_conversions_refuse_what_is_not_an_action(game):
    env = game.env().unwrapped
    n = env.action_space("player_0").n
    with pytest.raises(ValueError, match="unknown action"):
        env.string_to_action("fly to the moon")
    with pytest.raises(TypeError, match="string"):
        env.string_to_action(3)
    with pytest.raises(ValueError, match="out of range"):
        env.action_to_string(n)
    with pytest.raises(TypeError, match="integer"):
        env.action_to_string("3")


@pytest.mark.parametrize("game, table", every_table())
def test_observation_fields_tile_the_vector_in_the_declared_order(game, table):
    env = make(game, table).unwrapped
    fields = env.observation_fields
    declared = [b.name for b in game.schema.blocks]
    assert [name for name in declared if name in fields] == list(fields)
    size = env.observation_space("player_0")["observation"].shape[0]
    covered = sorted(i for s in fields.values() for i in range(size)[s])
    assert covered == list(range(size))
    assert env.observation_groups == {b.name: b.group for b in game.schema.blocks if b.name in fields}


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_the_history_block_comes_last_in_its_own_group(game):
    env = game.raw_env(num_players=game.min_players, history_length=4)
    assert list(env.observation_fields)[-1] == "history" and env.observation_groups["history"] == "history"


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_the_docs_show_every_block_and_argument_as_declared(game):
    docs = game.reference
    for block in game.schema.blocks:
        assert f"| `{block.name}` | {block.shape_text} | {block.group} | {block.doc} |" in docs
    for argument in ("num_players", "max_turns", "illegal", "reward", "render_mode", *(a.name for a in game.arguments)):
        assert f"| `{argument}` |" in docs
    module = f"hidden_role_envs.{game.module_name}"
    if importlib.util.find_spec(module) is not None:  # the packaged games' versioned modules
        public = importlib.import_module(module)
        assert public.__doc__ == docs and public.raw_env is game.raw_env
        assert game.raw_env.__module__ == module


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_spaces_are_the_same_object_on_every_call(game):
    env = game.env()
    assert env.action_space("player_1") is env.action_space("player_1")
    assert env.observation_space("player_1") is env.observation_space("player_1")


@pytest.mark.parametrize("game, table", typical_tables())
def test_only_the_seat_to_act_has_a_mask_and_every_observation_is_in_its_space(game, table):
    env = make(game, table)
    rng = np.random.default_rng(0)
    space = env.observation_space("player_0")["observation"]
    for seed in range(5):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            asked = env.unwrapped.engine.current_player  # the agent to act, unless a done agent takes its None step
            assert terminated or truncated or env.possible_agents.index(agent) == asked
            for other in env.agents:
                obs = env.observe(other)
                assert obs["action_mask"].dtype == np.int8 and obs["observation"].dtype == np.float32
                assert space.contains(obs["observation"])
                assert obs["action_mask"].any() == (env.possible_agents.index(other) == asked)
            env.step(None if terminated or truncated else random_legal(rng, env.observe(agent)))


@pytest.mark.parametrize("game, table", typical_tables())
def test_no_one_can_change_a_mask_another_game_reads(game, table):
    a, b = make(game, table), make(game, table)
    rng = np.random.default_rng(1)
    a.reset(seed=1)
    b.reset(seed=1)
    for agent in a.agent_iter(200):
        obs_a, _, terminated, truncated, _ = a.last()
        obs_a["action_mask"][:] = 0  # the caller's copy
        assert np.array_equal(b.observe(agent)["action_mask"], a.observe(agent)["action_mask"])
        internal = a.unwrapped.engine.legal_mask()
        if internal.flags.writeable:  # a per-game scratch buffer: writing it must not reach the other game
            internal[:] = 1 - internal
            assert not np.array_equal(b.unwrapped.engine.legal_mask(), internal)
            internal[:] = 1 - internal
        else:
            with pytest.raises(ValueError):
                internal[0] = 1
        action = None if terminated or truncated else random_legal(rng, b.observe(agent))
        a.step(action)
        b.step(action)


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_ansi_render_shows_the_table_and_only_the_acting_seat_view(game, capsys):
    env = game.env(render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert f"View of {env.agent_selection}:" in text and text.count("View of") == 1
    assert "Legal actions:" in text
    human = game.env(render_mode="human")
    human.reset(seed=0)
    assert capsys.readouterr().out.strip() == text.strip()


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_calls_out_of_order_are_clear_errors(game):
    env = game.env()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.last()):
        with pytest.raises(RuntimeError, match="reset"):
            call()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else random_legal(rng, obs))
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)
    with pytest.raises(RuntimeError, match="over"):
        env.last()


@pytest.mark.parametrize("game, table", typical_tables())
def test_an_illegal_action_is_refused_and_changes_nothing(game, table):
    env = make(game, table)
    rng = np.random.default_rng(2)
    env.reset(seed=2)
    refused = 0
    for agent in env.agent_iter(300):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        illegal = np.flatnonzero(obs["action_mask"] == 0)
        if illegal.size:
            before = pickle.dumps(env.unwrapped.engine)
            with pytest.raises(ValueError, match=agent):
                env.step(int(rng.choice(illegal)))
            assert pickle.dumps(env.unwrapped.engine) == before
            refused += 1
        for bad in (-1, env.action_space(agent).n, 1.0, "0", True, None):
            with pytest.raises(ValueError, match=agent):
                env.step(bad)
        env.step(random_legal(rng, obs))
    assert refused


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_penalize_ends_the_game_with_a_penalty_for_the_mover(game):
    env = game.env(illegal="penalize")
    rng = np.random.default_rng(0)
    for seed in range(100):  # play on to a decision with an illegal action
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if not (terminated or truncated) and not obs["action_mask"].all():
                break
            env.step(None if terminated or truncated else random_legal(rng, obs))
        if env.agents:
            break
    mover = env.agent_selection
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1.0 and all(r == 0 for a, r in env.rewards.items() if a != mover)
    assert all(env.infos[a]["illegal_move"]["agent"] == mover for a in env.agents)


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_the_turn_limit_truncates_every_seat_and_tells_it_what_the_end_reveals(game):
    rng = np.random.default_rng(0)
    for seed in range(20):
        env = game.env(max_turns=2)
        env.reset(seed=seed)
        told = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if truncated:
                assert not terminated and reward == 0
                assert not obs["action_mask"].any(), "a stopped game offers no action, as a finished one"
                told[agent] = info
            env.step(None if terminated or truncated else random_legal(rng, obs))
        if not env.unwrapped.game_over:
            assert not any(env.observe(a)["action_mask"].any() for a in env.possible_agents)
            break
    assert env.unwrapped.engine.turns_played == 2 and told
    revealed = env.unwrapped.engine.reveal()
    for agent, info in told.items():
        assert info["result"] == "truncated" and info["winners"] == [] and info["truncated_after_turns"] == 2
        assert set(revealed.info) | set(revealed.own) <= set(info), "a truncated game reveals what its end reveals"
    finished = game.env()
    finished.reset(seed=0)
    play_on(finished, 0)
    ended = finished.unwrapped.outcome(finished.possible_agents[0])
    end_keys = set(ended[0]) | set(ended[1])
    assert set(revealed.info) | set(revealed.own) <= end_keys  # the end reveals no less than a truncation
    assert end_keys - set(revealed.info) - set(revealed.own) <= {"result", "winners", "winner", "won"}


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_bad_constructor_arguments_name_the_argument(game):
    for kwargs, match in (
        ({"num_players": game.max_players + 1}, f"num_players must be an integer from {game.min_players} to "
                                                 f"{game.max_players}"),
        ({"num_players": True}, "num_players"),
        ({"num_players": 4.0}, "num_players"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": 2.5}, "max_turns"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"illegal": "ignore"}, "illegal"),
        ({"reward": "money"}, "reward"),
    ):
        with pytest.raises(ValueError, match=match):
            game.env(**kwargs)
    with pytest.raises(TypeError, match="no argument"):
        game.env(colour="blue")


@pytest.mark.parametrize("game", every_game(), ids=lambda g: g.name)
def test_a_refused_reset_changes_nothing(game):
    env = game.env()
    twin = game.env()
    env.reset(seed=5)
    twin.reset(seed=5)
    play_on(env, 4, steps=3)
    play_on(twin, 4, steps=3)
    engine = pickle.dumps(env.unwrapped.engine)
    for seed, options, error in (
        (True, None, TypeError), (-1, None, ValueError), (1.5, None, TypeError), ("7", None, TypeError),
        (None, [("setup", {})], TypeError), (None, {"setup": [1, 2]}, TypeError),
        (None, {"setup": {"no such key": 1}}, ValueError),
    ):
        with pytest.raises(error, match="seed" if options is None else "setup|options"):
            env.reset(seed=seed, options=options)
        assert pickle.dumps(env.unwrapped.engine) == engine, "a refused reset changed the game in progress"
    # the game goes on as if nothing happened, and the next unseeded reset deals what it would have
    assert play_on(env, 6) == play_on(twin, 6)
    env.reset()
    twin.reset()
    assert play_on(env, 7) == play_on(twin, 7)


def play_on(env, seed: int, steps: int | None = None) -> list:
    rng = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter(steps or 2**63):
        obs, reward, terminated, truncated, info = env.last()
        trace.append((agent, obs["observation"].tobytes(), reward, repr(info)))
        env.step(None if terminated or truncated else random_legal(rng, obs))
    return trace

"""The RLlib backend: every game through RLlib's PettingZoo wrapper, and short training runs on a local Ray."""

import csv
import os

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the rllib extra (Ray RLlib) is not installed")

from hidden_role_envs.core import registry
from hidden_role_envs.training import rllib_train, train
from hidden_role_envs.training.rllib_env import GameEnv, role_of



def play_through_rllib(game: str, num_players: int, seed: int, roles: bool = False):
    """A seeded random game through GameEnv: the returns per agent id, the actions in order, the ids seen."""
    env = GameEnv({"game": game, "num_players": num_players, "roles": roles})
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    returns: dict[str, float] = {}
    actions: list[int] = []
    done: set[str] = set()
    while True:
        to_act = [agent for agent in observations if agent not in done]
        assert len(to_act) == 1, to_act  # turn-based: one seat decides at a time
        agent = to_act[0]
        observation = observations[agent]
        assert set(observation) == {"observations", "action_mask"}
        assert env.observation_spaces[agent].contains(observation)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        actions.append(action)
        observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
        for other, reward in rewards.items():
            returns[other] = returns.get(other, 0.0) + reward
        done |= {a for a in observations if terminateds.get(a) or truncateds.get(a)}
        if terminateds["__all__"] or truncateds["__all__"]:
            return returns, actions, set(env.agents)


def play_directly(game: str, num_players: int, seed: int, actions: list[int]) -> dict[str, float]:
    """The same game played on the AEC env itself, with the same actions: each seat's return."""
    env = registry.make(game, num_players=num_players)
    env.reset(seed=seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    moves = iter(actions)
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        env.step(None if terminated or truncated else next(moves))
    return returns


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_every_game_passes_through_rllibs_pettingzoo_wrapper(game):
    num_players = registry.GAMES[game].benchmark_players[1]  # the typical table
    for seed in range(3):
        returns, actions, _ = play_through_rllib(game, num_players, seed)
        assert returns == pytest.approx(play_directly(game, num_players, seed, actions))


def test_spyfall_agent_ids_carry_the_role_each_seat_holds():
    for seed in range(5):
        returns, actions, agents = play_through_rllib("spyfall", 5, seed, roles=True)
        assert sorted(role_of(agent) for agent in agents) == ["non_spy"] * 4 + ["spy"]
        direct = play_directly("spyfall", 5, seed, actions)
        assert {agent.split("/")[0]: value for agent, value in returns.items()} == pytest.approx(direct)


def test_roles_are_refused_where_they_change_hands():
    with pytest.raises(ValueError, match="secrets has no fixed roles"):
        GameEnv({"game": "secrets", "num_players": 5, "roles": True})
    assert rllib_train.fixed_role_games() == ["spyfall"]


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def test_one_training_iteration_through_hidden_roles_train(tmp_path, capsys):
    code = train.main(["hoax", "--backend", "rllib", "--players", "3", "--timesteps", "200", "--batch-size", "200",
                       "--minibatch-size", "100", "--env-runners", "0", "--envs-per-runner", "2",
                       "--final-games", "10", "--out", str(tmp_path)])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("iter    1  env steps")
    progress = read_csv(tmp_path / "progress.csv")
    assert len(progress) == 1 and int(progress[0]["env_steps"]) >= 200
    assert float(progress[0]["steps_per_second_per_runner"]) > 0
    assert [row["opponents"] for row in read_csv(tmp_path / "evaluation.csv")] == ["random", "scripted"]
    (checkpoint,) = os.listdir(tmp_path / "checkpoints")
    policy = rllib_train.ModulePolicy.from_checkpoint(str(tmp_path / "checkpoints" / checkpoint), "hoax", 3)
    env = registry.make("hoax", num_players=3)
    env.reset(seed=0)
    for agent in env.agent_iter(300):
        observation, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else policy(observation)
        assert action is None or observation["action_mask"][action]
        env.step(action)


def test_one_training_iteration_with_a_policy_per_role(tmp_path, capsys):
    code = rllib_train.main(["spyfall", "--policy-per-role", "--timesteps", "200", "--batch-size", "200",
                             "--minibatch-size", "100", "--env-runners", "1", "--envs-per-runner", "2",
                             "--final-games", "0", "--out", str(tmp_path)])
    assert code == 0
    assert "(non_spy " in capsys.readouterr().out
    (row,) = read_csv(tmp_path / "progress.csv")
    assert {"return_all", "return_spy", "return_non_spy"} <= set(row)
    (checkpoint,) = os.listdir(tmp_path / "checkpoints")
    modules = tmp_path / "checkpoints" / checkpoint / "learner_group" / "learner" / "rl_module"
    assert {"spy", "non_spy"} <= set(os.listdir(modules))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["poker"], "unknown game 'poker'"),
        (["hoax", "--policy-per-role"], "--policy-per-role: hoax has no fixed roles"),
        (["mascarade", "--address", "127.0.0.1:1"], "--address '127.0.0.1:1': no Ray cluster answers there"),
        (["secrets", "--address", "head:port"], "expected HOST:PORT"),
        (["secrets", "--batch-size", "100", "--minibatch-size", "200"], "larger than --batch-size"),
    ],
)
def test_bad_input_is_refused_in_one_line(argv, message, capsys):
    assert train.main(argv[:1] + ["--backend", "rllib"] + argv[1:]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("train: error:") and message in err[0]

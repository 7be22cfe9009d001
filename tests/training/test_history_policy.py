"""A policy that reads the history block (`hidden-roles train --history K`): attention over the last K events, saved
with the policy, which plays in any env whose history block holds at least its K events."""

import csv
import dataclasses

import numpy as np
import pytest

pytest.importorskip("jax", reason="the self-play trainer needs JAX (the train extra)")

import jax  # noqa: E402

import hidden_role_envs  # noqa: E402
from hidden_role_envs.policies import events_read, make_policy  # noqa: E402
from hidden_role_envs.training import evaluate, play, train  # noqa: E402
from hidden_role_envs.training.imitation import Demonstrations  # noqa: E402
from hidden_role_envs.training.selfplay import imitation as warm  # noqa: E402
from hidden_role_envs.training.selfplay import network  # noqa: E402

EVENTS = 4


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Hoax, whose scripted player is Python: its warm start is recorded on `env()`, with the history too."""
    out = tmp_path_factory.mktemp("history")
    code = train.main(
        ["hoax", "--players", "4", "--history", str(EVENTS), "--no-recipe", "--timesteps", "512", "--games", "16",
         "--steps", "8", "--epochs", "1", "--hidden", "16", "--imitation-steps", "200", "--imitation-epochs", "1",
         "--eval-every", "512", "--eval-games", "4", "--final-games", "4", "--no-progress", "--out", str(out)]
    )
    assert code == 0
    return out / "model.npz"


def test_the_saved_policy_reads_the_events_it_was_trained_on(run):
    _, arch, _ = network.load(run)
    env = hidden_role_envs.make("hoax", num_players=4, history_length=EVENTS)
    history = env.unwrapped.observation_fields["history"]
    assert (arch.history_length, arch.event_width * EVENTS) == (EVENTS, history.stop - history.start)
    assert arch.state_size == history.start
    assert events_read([str(run), "scripted"]) == EVENTS
    with open(run.parent / "evaluation.csv") as f:  # its evaluations played it in envs with the history
        assert [row["games"] for row in csv.DictReader(f)] == ["4", "4"]


def _actions(policy, env, games: int) -> list[int]:
    played = []
    for game in range(games):
        env.reset(seed=game)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else policy(observation)
            played.append(action)
            env.step(action)
    return played


def test_it_plays_the_same_in_an_env_whose_history_is_longer(run):
    envs = [hidden_role_envs.make("hoax", num_players=4, history_length=k) for k in (EVENTS, EVENTS + 5)]
    played = [_actions(make_policy(str(run), env), env, 3) for env in envs]
    assert len(played[0]) > 30 and played[0] == played[1]


@pytest.mark.parametrize("history", [0, EVENTS - 1])
def test_an_env_that_keeps_fewer_events_is_refused_saying_what_to_make(run, history):
    env = hidden_role_envs.make("hoax", num_players=4, history_length=history)
    with pytest.raises(ValueError, match=f"history_length={EVENTS} or more"):
        make_policy(str(run), env)


def test_evaluate_makes_its_table_with_the_history_the_policies_read(run, tmp_path, capsys):
    code = evaluate.main(["hoax", "--players", "4", "--seats", f"{run},scripted", "--games", "2", "--no-progress",
                          "--no-baseline", "--csv", str(tmp_path / "table.csv")])
    assert code == 0, capsys.readouterr().err
    with open(tmp_path / "table.csv") as f:
        assert sum(int(row["seat_games"]) for row in csv.DictReader(f)) == 2 * 4


def test_a_policy_without_history_plays_beside_it_reading_the_entries_before_the_block(run, tmp_path):
    _, arch, _ = network.load(run)
    plain = dataclasses.replace(arch, history_length=0, event_width=0, observation_size=arch.state_size)
    params = network.init(jax.random.PRNGKey(0), plain, np.ones(plain.observation_size, np.float32))
    network.save(tmp_path / "plain.npz", params, plain)
    rows = evaluate.evaluate("hoax", 4, [str(run), str(tmp_path / "plain.npz")], 2, 0, baseline=False)
    assert sum(row.seat_games for row in rows) == 2 * 4


def test_attention_learns_what_only_the_order_of_the_events_tells():
    """Each row is one of six kinds of event, some rows empty; the label is the kind of the most recent event,
    which a count of the kinds cannot tell: the fitted policy names it."""
    kinds, state_size, length, rows = 6, 8, EVENTS, 4096
    rng = np.random.default_rng(0)
    held = rng.integers(1, length + 1, rows)
    kind = rng.integers(0, kinds, (rows, length))
    events = np.eye(kinds, dtype=np.float32)[kind] * (np.arange(length)[None, :] < held[:, None])[..., None]
    observations = np.concatenate([rng.random((rows, state_size), np.float32), events.reshape(rows, -1)], axis=1)
    demos = Demonstrations(observations, np.ones((rows, kinds), bool), kind[:, 0].astype(np.int64),
                           np.zeros(rows, np.float32), games=rows)
    arch = network.Architecture("synthetic", 2, {}, observations.shape[1], kinds, (32,), history_length=length,
                                event_width=kinds)
    params = network.init(jax.random.PRNGKey(0), arch, np.ones(arch.observation_size, np.float32))
    agreement = []
    warm.fit(params, demos, 40, jax.random.PRNGKey(1), learning_rate=3e-3,
             on_epoch_done=lambda epoch, loss, agreed: agreement.append(agreed))
    assert agreement[0] < 0.5 < 0.95 < agreement[-1]


def test_play_seats_the_policy_at_a_table_with_the_history_it_reads(run):
    args = play.build_parser().parse_args(["hoax", "--players", "4", "--seed", "1", "--opponents", str(run)])
    assert play._session(args).env.unwrapped.history_length == EVENTS


def test_a_model_of_the_sb3_backend_plays_beside_it_reading_the_entries_before_the_history(run, tmp_path):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from hidden_role_envs import SingleSeatEnv

    model = sb3_contrib.MaskablePPO("MlpPolicy", SingleSeatEnv("hoax", num_players=4), n_steps=16, batch_size=16,
                                    policy_kwargs={"net_arch": [8]})
    model.save(tmp_path / "tiny.zip")
    rows = evaluate.evaluate("hoax", 4, [str(run), str(tmp_path / "tiny.zip")], 2, 0, baseline=False)
    assert sum(row.seat_games for row in rows) == 2 * 4

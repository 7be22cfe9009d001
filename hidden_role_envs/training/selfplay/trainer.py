"""The self-play trainer: a warm start on the scripted player (unless `imitation_steps` is 0), then PPO on the
batched engine (see `train`).

Everything of a run goes under its folder: model.npz (the final policy),
checkpoints/step_<decisions>.npz, imitation.csv (with a warm start), curve.csv,
learning_curve.png, evaluation.csv and tensorboard/ (`tensorboard --logdir`).
Evaluations play the reference env (`env()`, with the history block if the
policy reads one), the trained policy in one seat (rotated) against random
players and against the scripted players.
"""

from __future__ import annotations

import csv
import os
import time
from dataclasses import dataclass

import jax
import numpy as np

from hidden_role_envs import batched
from hidden_role_envs.core import registry
from hidden_role_envs.training import imitation
from hidden_role_envs.training.evaluate import Row
from hidden_role_envs.training.progress import progress_bar
from hidden_role_envs.training.reporting import (
    CurvePoint,
    measure,
    plot_curve,
    random_baselines,
    write_curve,
    write_final,
)
from hidden_role_envs.training.selfplay import imitation as warm
from hidden_role_envs.training.selfplay import network, ppo
from hidden_role_envs.training.selfplay.scripted import has_scores, twin_of


@dataclass
class Settings:
    game: str
    num_players: int
    timesteps: int  # learner decisions
    seed: int
    out: str
    eval_every: int
    eval_games: int
    final_games: int
    progress: bool = True
    imitation_steps: int = 60_000
    imitation_epochs: int = 10
    hidden: tuple[int, ...] = (256, 256)
    games: int = 512
    steps: int = 32
    epochs: int = 2
    learning_rate: float = 1e-4
    entropy: float = 0.01  # weight of the policy's entropy in PPO's loss: what keeps it trying other moves
    league_share: float = 0.6
    scripted_share: float = 0.0  # the real scripted players in the other seats (see ppo.Settings)
    random_share: float = 0.0  # uniformly random players in the other seats
    critic_sees_roles: bool = True
    role_weight: float = 0.0  # the auxiliary head that predicts the true roles, and its loss's weight (0: none)
    belief_links: bool = False  # the game's belief links in the policy (network's docs)
    link_gates: bool = False  # the links' gains also read the torso's features (network's docs)
    scripted_prior: bool = False  # the logits add the scripted player's view of each action (network's docs)
    history_length: int = 0  # the last events each seat saw, read by attention (network's docs; 0: none)
    best_response: bool = False  # the opponent is the scripted player's imitation alone (league_share should be 1)
    pool_size: int = 4  # frozen past versions kept as opponents, beside the scripted player's imitation
    processes: int = os.cpu_count() or 1  # for the scripted player: recording it, and its seats in scripted games

    def __post_init__(self):
        ppo.check_shares(self.scripted_share, self.random_share)
        if self.belief_links and registry.game(self.game).belief_links is None:
            linked = [name for name, game in registry.GAMES.items() if game.belief_links is not None]
            raise ValueError(f"{self.game} declares no belief links; games with them: {', '.join(linked)}")
        if self.link_gates and not self.belief_links:
            raise ValueError("link gates gate the belief links: they need the belief links on")
        if self.scripted_prior and not has_scores(registry.game(self.game)):
            scored = [name for name, game in registry.GAMES.items() if has_scores(game)]
            raise ValueError(f"{self.game}'s scripted player gives no scores to read; games whose does: "
                             f"{', '.join(scored)}")


class TensorBoard:
    """Scalars in TensorBoard's event files, without torch."""

    def __init__(self, folder: str):
        from tensorboard.compat.proto import event_pb2, summary_pb2
        from tensorboard.summary.writer.event_file_writer import EventFileWriter

        self._event, self._summary = event_pb2.Event, summary_pb2.Summary
        self._writer = EventFileWriter(folder)

    def scalars(self, step: int, values: dict[str, float]) -> None:
        summary = self._summary(value=[self._summary.Value(tag=k, simple_value=float(v)) for k, v in values.items()])
        self._writer.add_event(self._event(wall_time=time.time(), step=step, summary=summary))

    def close(self) -> None:
        self._writer.close()


class Run:
    def __init__(self, s: Settings):
        self.s = s
        os.makedirs(os.path.join(s.out, "checkpoints"), exist_ok=True)
        self.env = batched.make(s.game, num_players=s.num_players, history_length=s.history_length)
        roles = self.env.game.critic_size
        event_width = self.env.histories.encoding.width if self.env.histories else 0
        self.arch = network.Architecture(s.game, s.num_players, {}, self.env.observation_shape[0], self.env.num_actions,
                                         tuple(s.hidden), roles if s.critic_sees_roles else 0,
                                         roles if s.role_weight else 0, belief_links(self.env) if s.belief_links else (),
                                         s.link_gates, s.scripted_prior, s.history_length, event_width)
        self.trainer = ppo.Trainer(self.env, self.arch, self.ppo_settings(s), seed=s.seed, processes=s.processes)
        self.key = jax.random.PRNGKey(s.seed)
        self.board = TensorBoard(os.path.join(s.out, "tensorboard"))
        self.points: list[CurvePoint] = []
        self.pool: list[dict] = []
        self.learned = 0  # learner decisions of the timed iterations
        self.baselines = random_baselines(s.game, s.num_players, s.eval_games, s.seed)

    @staticmethod
    def ppo_settings(s: Settings) -> ppo.Settings:
        return ppo.Settings(
            games=s.games, steps=s.steps, epochs=s.epochs, learning_rate=s.learning_rate, entropy=s.entropy,
            league_share=s.league_share, scripted_share=s.scripted_share, random_share=s.random_share,
            critic_sees_roles=s.critic_sees_roles, role_weight=s.role_weight,
        )

    def learn(self) -> dict[str, Row]:
        s = self.s
        key, init_key, start_key = jax.random.split(self.key, 3)
        params = ppo.new_params(init_key, self.env, self.arch)
        clone = None
        if s.imitation_steps:
            params = clone = self._warm_start(params, key)
        run = self.trainer.start(start_key, params)
        bar = progress_bar(s.timesteps, f"train {s.game}", enabled=s.progress, unit="decision")
        decisions, iteration, next_eval = 0, 0, s.eval_every
        self._checkpoint(run["params"], 0)
        self.learning_seconds = 0.0  # PPO alone: rollouts, updates, nothing of the evaluations
        try:
            while decisions < s.timesteps:
                cycle = opponents(clone, self.pool, run["params"], s.best_response)
                run["opponent"] = cycle[iteration % len(cycle)]
                started = time.perf_counter()
                run, metrics = self.trainer.iteration(run)
                metrics = {k: float(v) for k, v in metrics.items()}  # (waits for the iteration)
                if iteration:  # the first one compiles
                    self.learning_seconds += time.perf_counter() - started
                    self.learned += int(metrics["samples"])
                decisions += int(metrics["samples"])
                iteration += 1
                self.board.scalars(decisions, {f"train/{k}": v for k, v in metrics.items()})
                if bar:
                    bar.update(min(int(metrics["samples"]), s.timesteps - bar.n))
                if decisions >= next_eval or decisions >= s.timesteps:
                    self._checkpoint(run["params"], decisions)
                    self.pool = (self.pool + [run["params"]])[-s.pool_size:]
                    next_eval += s.eval_every
        finally:
            if bar:
                bar.close()
            self.board.close()
            self.trainer.close()
        final_path = os.path.join(s.out, "model.npz")
        network.save(final_path, run["params"], self.arch, {"decisions": decisions, "seed": s.seed})
        self.decisions_per_second = self.learned / self.learning_seconds if self.learning_seconds else float("nan")
        final = measure(final_path, s.game, s.num_players, s.final_games, s.seed + 1)
        write_final(os.path.join(s.out, "evaluation.csv"), s.game, s.num_players, decisions, s.seed, final,
                    self.baselines)
        return final

    def _warm_start(self, params: dict, key) -> dict:
        s = self.s
        bar = progress_bar(s.imitation_steps, "record the scripted player", enabled=s.progress, unit="decision")
        on_recorded = (lambda count: bar.update(min(count, s.imitation_steps - bar.n))) if bar else lambda count: None
        twin = twin_of(self.env)
        if twin:  # at the batched engine's speed
            demos = warm.record(self.env, twin, s.imitation_steps, jax.random.fold_in(key, 1), on_recorded=on_recorded)
        else:
            demos = imitation.collect(s.game, s.num_players, ["random", "scripted"], s.imitation_steps, s.seed, 1.0,
                                      s.processes, on_recorded=on_recorded, history_length=s.history_length)
        if bar:
            bar.close()
        with open(os.path.join(s.out, "imitation.csv"), "w", newline="") as log:
            writer = csv.writer(log)
            writer.writerow(["epoch", "loss", "agreement"])
            bar = progress_bar(s.imitation_epochs, "imitate it", enabled=s.progress, unit="epoch")

            def epoch_done(epoch: int, loss: float, agreement: float) -> None:
                writer.writerow([epoch + 1, f"{loss:.4f}", f"{agreement:.4f}"])
                if bar:
                    bar.update(1)

            try:
                return warm.fit(params, demos, s.imitation_epochs, key, on_epoch_done=epoch_done, links=self.arch.links,
                                prior=self._prior_of(demos) if s.scripted_prior else None)
            finally:
                if bar:
                    bar.close()

    def _prior_of(self, demos) -> np.ndarray:
        """The scripted prior's features of every recorded decision, a few thousand at a time."""
        features = jax.jit(self.trainer.prior.features)  # the rollout's own prior: the twin's tables built once
        chunk = 8192
        return np.concatenate([np.asarray(features(demos.observations[i:i + chunk], demos.masks[i:i + chunk]))
                               for i in range(0, len(demos.actions), chunk)])

    def _checkpoint(self, params: dict, decisions: int) -> None:
        s = self.s
        path = os.path.join(s.out, "checkpoints", f"step_{decisions}.npz")
        network.save(path, params, self.arch, {"decisions": decisions, "seed": s.seed})
        for kind, row in measure(path, s.game, s.num_players, s.eval_games, s.seed).items():
            low, high = row.interval
            self.points.append(CurvePoint(decisions, kind, row.win_rate, low, high, self.baselines[kind]))
            self.board.scalars(decisions, {f"eval/win_rate_vs_{kind}": row.win_rate})
        write_curve(os.path.join(s.out, "curve.csv"), self.points)
        plot_curve(os.path.join(s.out, "learning_curve.png"), self.points,
                   f"{s.game}, {s.num_players} players, seed {s.seed}")


def belief_links(env) -> tuple[tuple[int, int, int], ...]:
    """The game's belief links as the network reads them: (kind, action id, index in the observation), the kinds
    numbered in the order they first come (`Settings` has checked that the game declares some)."""
    kinds: dict[str, int] = {}
    return tuple((kinds.setdefault(kind, len(kinds)), action, env.observation_fields[block].start + index)
                 for kind, action, block, index in env.definition.belief_links(env.config))


def opponents(clone: dict | None, pool: list[dict], current: dict, best_response: bool) -> list[dict]:
    """The frozen policies the league games take in turn: the scripted player's imitation, then the past versions
    kept (the current one until there is any); a best response meets the imitation alone."""
    if best_response:
        return [clone]
    return ([clone] if clone is not None else []) + (pool or [current])


def train(s: Settings) -> dict[str, Row]:
    """Train, evaluate along the way, save everything under `s.out`; return the final evaluation."""
    return Run(s).learn()


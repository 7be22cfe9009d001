"""The Stable-Baselines3 trainer: MaskablePPO on one seat, warm-started by imitation (see `training.train`).

Imported only when this backend trains: it needs the `train` extra.
"""

from __future__ import annotations

import csv
import os
import time
from dataclasses import dataclass

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

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
from hidden_role_envs.wrappers.single_seat import SingleSeatEnv


def opponent_pool(past_versions: list[str]) -> list[str]:
    """A third random players, a third scripted players, a third past versions (once there are some)."""
    share = max(1, len(past_versions))
    return ["random"] * share + ["scripted"] * share + past_versions


@dataclass
class Settings:
    game: str
    num_players: int
    timesteps: int
    seed: int
    envs: int
    out: str
    eval_every: int
    eval_games: int
    final_games: int
    pool_size: int
    progress: bool
    imitation_steps: int = 100_000
    imitation_epochs: int = 12
    learning_rate: float = 3e-5
    rehearsal_batches: int = 16


class Run:
    """One training run: the model, its envs, and what it has recorded so far."""

    def __init__(self, s: Settings):
        torch.set_num_threads(1)  # the envs' processes use the other cores
        os.makedirs(os.path.join(s.out, "checkpoints"), exist_ok=True)
        self.s = s
        make = [lambda: SingleSeatEnv(s.game, num_players=s.num_players, opponents=opponent_pool([]))] * s.envs
        self.venv = VecMonitor(SubprocVecEnv(make) if s.envs > 1 else DummyVecEnv(make))  # episode rewards, TensorBoard
        self.model = MaskablePPO(
            "MlpPolicy",
            self.venv,
            learning_rate=s.learning_rate,
            n_steps=1024,
            batch_size=512,
            n_epochs=10,
            gamma=1.0,  # one episode is one game, and only its result counts
            ent_coef=0.01,
            policy_kwargs={"net_arch": [256, 256]},
            tensorboard_log=os.path.join(s.out, "tensorboard"),
            seed=s.seed,
            device="cpu",
            verbose=0,
        )
        self.demos = warm_start(self.model, s) if s.imitation_steps else None
        self.rehearsal_rng = np.random.default_rng(s.seed)
        self.baselines = random_baselines(s.game, s.num_players, s.eval_games, s.seed)
        self.points: list[CurvePoint] = []
        self.pool: list[str] = []
        self.evaluation_seconds = 0.0  # spent in checkpoints, left out of the learning rate
        self.decisions_per_second = float("nan")  # learner decisions per second of PPO and rehearsals, once learned

    def checkpoint(self, step: int) -> None:
        """Save the model, evaluate it, extend the curve, and make it one of the opponents."""
        started = time.perf_counter()
        s = self.s
        path = os.path.join(s.out, "checkpoints", f"step_{step}.zip")
        self.model.save(path)
        for kind, row in measure(path, s.game, s.num_players, s.eval_games, s.seed).items():
            low, high = row.interval
            self.points.append(CurvePoint(step, kind, row.win_rate, low, high, self.baselines[kind]))
            self.model.logger.record(f"eval/win_rate_vs_{kind}", row.win_rate)
        self.model.logger.dump(step)
        write_curve(os.path.join(s.out, "curve.csv"), self.points)
        plot_curve(os.path.join(s.out, "learning_curve.png"), self.points, f"{s.game}, {s.num_players} players, seed {s.seed}")
        self.pool.append(path)
        del self.pool[: -s.pool_size]
        self.venv.env_method("set_opponents", opponent_pool(self.pool))
        self.evaluation_seconds += time.perf_counter() - started

    def rehearse(self) -> None:
        if self.demos is not None and self.s.rehearsal_batches:
            imitation.rehearse(self.model.policy, self.demos, self.s.rehearsal_batches, self.rehearsal_rng)

    def learn(self) -> dict[str, Row]:
        s = self.s
        bar = progress_bar(s.timesteps, f"train {s.game}", enabled=s.progress)
        try:
            started = time.perf_counter()
            self.model.learn(total_timesteps=s.timesteps, callback=Schedule(self, bar), tb_log_name="ppo")
            learning = time.perf_counter() - started - self.evaluation_seconds
            self.decisions_per_second = self.model.num_timesteps / learning
            if not self.points or self.points[-1].timesteps < self.model.num_timesteps:
                self.checkpoint(self.model.num_timesteps)
        finally:
            if bar:
                bar.close()
            self.venv.close()
        final_path = os.path.join(s.out, "model.zip")
        self.model.save(final_path)
        final = measure(final_path, s.game, s.num_players, s.final_games, s.seed + 1)
        write_final(os.path.join(s.out, "evaluation.csv"), s.game, s.num_players, s.timesteps, s.seed, final,
                    self.baselines)
        return final


class Schedule(BaseCallback):
    """Checkpoints every `eval_every` steps (and before the first), rehearsals after every update, the bar."""

    def __init__(self, run: Run, bar):
        super().__init__()
        self.run, self.bar = run, bar
        self.next_eval = run.s.eval_every
        self.last = 0

    def _on_training_start(self) -> None:
        self.run.checkpoint(0)  # the untrained model: where the curve starts

    def _on_rollout_start(self) -> None:
        # here the last rollout has been learned from, so the checkpoint holds what it taught
        if self.num_timesteps > 0:
            self.run.rehearse()
        if self.num_timesteps >= self.next_eval:
            self.run.checkpoint(self.num_timesteps)
            self.next_eval += self.run.s.eval_every

    def _on_step(self) -> bool:
        if self.bar:
            self.bar.update(self.num_timesteps - self.last)
        self.last = self.num_timesteps
        return True


def warm_start(model, s: Settings) -> imitation.Demonstrations:
    """Fit the new model to the scripted player's decisions before PPO starts; return them for the rehearsals."""
    bar = progress_bar(s.imitation_steps, "record the scripted player", enabled=s.progress, unit="decision")
    demos = imitation.collect(s.game, s.num_players, opponent_pool([]), s.imitation_steps, s.seed, model.gamma,
                              s.envs, on_recorded=bar.update if bar else lambda count: None)
    if bar:
        bar.close()
    bar = progress_bar(s.imitation_epochs, "imitate it", enabled=s.progress, unit="epoch")
    with open(os.path.join(s.out, "imitation.csv"), "w", newline="") as log:
        writer = csv.writer(log)
        writer.writerow(["epoch", "loss", "agreement"])

        def epoch_done(epoch: int, loss: float, agreement: float) -> None:
            writer.writerow([epoch + 1, f"{loss:.4f}", f"{agreement:.4f}"])
            if bar:
                bar.update(1)

        try:
            imitation.imitate(model.policy, demos, s.imitation_epochs, s.seed, on_epoch_done=epoch_done)
        finally:
            if bar:
                bar.close()
    return demos

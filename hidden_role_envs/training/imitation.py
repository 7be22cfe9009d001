"""Warm start: the policy first imitates the scripted player, then PPO takes over.

At Secrets a game's result hangs on every seat's choices, so one +1 or -1 at
the end says little about any single decision, and PPO from a random policy
learns slowly (see RESULTS.md). Before PPO starts, the trainer therefore
records the scripted player's decisions in the learner's seat, against the
same opponents PPO first meets, and fits the policy to them (cross-entropy
over the legal actions) and the value net to the rewards that followed
them. PPO then improves a policy that already plays, with a critic that
already knows roughly what a position is worth.

During PPO the trainer keeps rehearsing (`rehearse`): after every PPO
update, a few batches of the same demonstrations pull the policy back
towards the scripted player's choices. PPO's advantages at Secrets are so
noisy that without it the policy drifts away from what it imitated and
loses games it used to win (RESULTS.md); with it, a change PPO makes has to
pay for itself against that pull.
"""

from __future__ import annotations

import collections
import functools
import itertools
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from hidden_role_envs.policies import make_policy

GAMES_PER_TASK = 20  # games one worker process records before reporting back


@dataclass
class Demonstrations:
    """The scripted player's decisions in the learner's seat, one row each."""

    observations: np.ndarray  # float32 (N, observation size)
    masks: np.ndarray  # bool (N, actions): what was legal
    actions: np.ndarray  # int64 (N,): what the scripted player chose
    returns: np.ndarray  # float32 (N,): the discounted rewards that followed, what the value net learns
    games: int

    @classmethod
    def concatenate(cls, parts: list[Demonstrations]) -> Demonstrations:
        return cls(
            *(np.concatenate([getattr(p, name) for p in parts]) for name in ("observations", "masks", "actions", "returns")),
            games=sum(p.games for p in parts),
        )


def record(game: str, num_players: int, opponents: list[str], seeds: range, gamma: float,
           history_length: int = 0) -> Demonstrations:
    """Play one seeded game per seed with the scripted player in the learner's (random) seat; the observations
    end with the last `history_length` events (none: 0), for a policy that reads them."""
    from hidden_role_envs.wrappers.single_seat import SingleSeatEnv

    env = SingleSeatEnv(game, num_players=num_players, opponents=opponents, history_length=history_length)
    teacher = make_policy("scripted", env.aec, seeds.start)
    observations, masks, actions, returns = [], [], [], []
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        rewards = []
        done = False
        while not done:
            mask = env.action_masks()
            action = teacher({"observation": observation, "action_mask": mask.astype(np.int8)})
            observations.append(observation)
            masks.append(mask)
            actions.append(action)
            observation, reward, terminated, truncated, _ = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        following, game_returns = 0.0, []
        for reward in reversed(rewards):
            following = reward + gamma * following
            game_returns.append(following)
        returns.extend(reversed(game_returns))
    return Demonstrations(
        np.asarray(observations, dtype=np.float32),
        np.asarray(masks, dtype=bool),
        np.asarray(actions, dtype=np.int64),
        np.asarray(returns, dtype=np.float32),
        games=len(seeds),
    )


def collect(
    game: str,
    num_players: int,
    opponents: list[str],
    decisions: int,
    seed: int,
    gamma: float,
    processes: int,
    on_recorded: Callable[[int], None] = lambda count: None,
    history_length: int = 0,
) -> Demonstrations:
    """Whole seeded games of demonstrations until they hold at least `decisions` decisions.

    Games are recorded in blocks, in `processes` worker processes, and the
    blocks are taken in order of their seeds, so the result does not depend
    on the number of processes. `on_recorded` gets the decisions of each block taken; `history_length`: see
    `record`.
    """
    first = seed * 1_000_003  # keeps the seeds of runs with different --seed apart
    blocks = (range(first + i * GAMES_PER_TASK, first + (i + 1) * GAMES_PER_TASK) for i in itertools.count())
    parts: list[Demonstrations] = []
    recorded = 0

    def take(part: Demonstrations) -> bool:
        nonlocal recorded
        parts.append(part)
        recorded += len(part.actions)
        on_recorded(len(part.actions))
        return recorded >= decisions

    record_block = functools.partial(record, game, num_players, opponents, gamma=gamma, history_length=history_length)
    if processes <= 1:
        for block in blocks:
            if take(record_block(block)):
                break
        return Demonstrations.concatenate(parts)
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("forkserver")) as pool:
        pending = collections.deque(pool.submit(record_block, next(blocks)) for _ in range(processes))
        while not take(pending.popleft().result()):
            pending.append(pool.submit(record_block, next(blocks)))
        for future in pending:
            future.cancel()
    return Demonstrations.concatenate(parts)


def imitate(
    policy,
    demos: Demonstrations,
    epochs: int,
    seed: int,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    on_epoch_done: Callable[[int, float, float], None] = lambda epoch, loss, agreement: None,
) -> None:
    """Fit a MaskablePPO policy to the demonstrations: its actions and their returns.

    `on_epoch_done` gets the mean loss and the agreement: the share of
    decisions where the teacher's action holds over half the policy's
    probability.
    """
    import torch

    observations = torch.as_tensor(demos.observations)
    masks = torch.as_tensor(demos.masks)
    actions = torch.as_tensor(demos.actions)
    returns = torch.as_tensor(demos.returns)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    order = np.random.default_rng(seed)
    policy.set_training_mode(True)
    for epoch in range(epochs):
        total_loss = agreed = 0.0
        for batch in np.array_split(order.permutation(len(actions)), max(1, len(actions) // batch_size)):
            index = torch.as_tensor(batch)
            values, log_prob, _ = policy.evaluate_actions(observations[index], actions[index], action_masks=masks[index])
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), returns[index])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item() * len(batch)
            agreed += float((log_prob > np.log(0.5)).sum())  # over half the probability: the policy's favourite
        on_epoch_done(epoch, total_loss / len(actions), agreed / len(actions))
    policy.set_training_mode(False)


def rehearse(policy, demos: Demonstrations, batches: int, rng: np.random.Generator, batch_size: int = 256) -> None:
    """`batches` steps of the policy's optimizer on the cross-entropy of random demonstrations.

    The policy's own optimizer (PPO's, at PPO's learning rate) takes the
    steps; the value net is left to PPO.
    """
    import torch

    policy.set_training_mode(True)
    for _ in range(batches):
        index = rng.integers(len(demos.actions), size=batch_size)
        _, log_prob, _ = policy.evaluate_actions(torch.as_tensor(demos.observations[index]),
                                                 torch.as_tensor(demos.actions[index]),
                                                 action_masks=torch.as_tensor(demos.masks[index]))
        loss = -log_prob.mean()
        policy.optimizer.zero_grad()
        loss.backward()
        policy.optimizer.step()
    policy.set_training_mode(False)
